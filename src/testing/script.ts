// A scripted model conversation, independent of the wire API: each fake server turns a step into
// its own SSE dialect. One step answers one model request, in order.

export interface ScriptedToolCall {
  /**
   * The tool's name as the CLI offers it (e.g. `Bash`, `exec_command`, `bash`). On the Responses API,
   * `web_search` and `tool_search` are sent as the API's own search items, as Codex expects them.
   */
  name: string;
  input: unknown;
  /** Call id; generated when omitted. */
  id?: string;
  /** For APIs with namespaced tools (Codex MCP): the namespace. */
  namespace?: string;
  /** Send as a custom (freeform) tool call whose input is this raw text (Codex apply_patch). */
  custom?: boolean;
}

export interface ScriptedUsage {
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
}

export interface ModelReply {
  /** Reasoning / thinking text, sent before the answer. */
  thinking?: string;
  /** Answer text; sent in several deltas (split on spaces) so partial streaming can be observed. */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Stop after this many SSE events and close the connection without the final event. */
  cutAfterEvents?: number;
  /** Milliseconds between SSE events. */
  delayMs?: number;
}

export type ScriptStep =
  | ({ kind?: 'reply' } & ModelReply)
  /** An HTTP error: `retry-after` (seconds) and `retry-after-ms` headers when given, as the model APIs send them. */
  | { kind: 'error'; status: number; message?: string; retryAfterSeconds?: number; retryAfterMs?: number; type?: string }
  /** Accept the request and never answer (before headers, or after the stream started). */
  | { kind: 'hang'; after?: 'headers' | 'first-event' | 'nothing' };

/**
 * What the server answers: a fixed list (the last step repeats when the list runs out, so
 * "500 forever" is one step), or a function of the request.
 */
export type Script = ScriptStep[] | ((request: RecordedRequest, index: number) => ScriptStep);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  receivedAt: number;
}

export function stepFor(script: Script, request: RecordedRequest, index: number): ScriptStep {
  if (typeof script === 'function') return script(request, index);
  const step = script[Math.min(index, script.length - 1)];
  if (!step) throw new Error('the fake model script is empty');
  return step;
}

/** Splits text into word-sized deltas (keeping the spaces) so streams have more than one. */
export function textDeltas(text: string): string[] {
  const parts = text.match(/\S+\s*|\s+/g);
  return parts ?? [text];
}
