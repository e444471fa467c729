// What a fake model answers to one request, independent of the wire API (src/testing serves it in
// each API's dialect). Part of the adapter contract: an adapter's structuredAnswer says, in these
// steps, how its CLI's structured output looks to the model.
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
