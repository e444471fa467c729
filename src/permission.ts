// canUseTool: the host decides each tool use a CLI asks about. The callback gets a signal (the CLI
// withdrew the question, the turn was interrupted, the session closed) and a deadline; one that
// throws or does not answer in time denies (fail closed) and is reported as a non-fatal error.
import type { ToolFacts, TranslatedEvent } from './events.js';
import { answerWithin } from './schema/host-answer.js';

export interface PermissionRequest {
  /** The tool as the CLI names it (e.g. `Bash`). */
  toolName: string;
  /** The input the tool would run with. */
  input: Record<string, unknown>;
  /** The id of the tool use, when the CLI names it. */
  toolUseId?: string;
  /** What the tool does, portable across CLIs: a policy written against `tool.kind` holds on every CLI. */
  tool?: ToolFacts;
  /** What the CLI says the call does, when it says. */
  description?: string;
  /**
   * For a call of an MCP tool the SDK's bridge serves (a custom tool: server `coderline`; or a tool of
   * one of `mcpServers`): the server's name, and the tool's name on that server.
   */
  mcpServer?: string;
  mcpTool?: string;
}

export type PermissionDecision =
  | { behavior: 'allow'; /** Runs instead of the original input (where the CLI can carry it). */ updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; /** Shown to the model (where the CLI can carry it). */ message?: string };

export type CanUseTool = (request: PermissionRequest, context: { signal: AbortSignal }) => PermissionDecision | Promise<PermissionDecision>;

export const DEFAULT_PERMISSION_TIMEOUT_MS = 60_000;

export interface AskOptions {
  timeoutMs: number;
  /** Aborted when the question is withdrawn. */
  signal: AbortSignal;
  emit(event: TranslatedEvent): void;
  /** The CLI's record of the question, as the events' `raw`. */
  raw: unknown;
  /** Why the CLI cannot carry a decision, when it cannot (it is then a deny). */
  refuses?(decision: PermissionDecision): string | undefined;
}

function isDecision(value: unknown): value is PermissionDecision {
  const behavior = (value as { behavior?: unknown } | null)?.behavior;
  return behavior === 'allow' || behavior === 'deny';
}

/** Asks the callback; always settles with a decision, emitting the request and decision events. */
export async function askPermission(canUseTool: CanUseTool, request: PermissionRequest, options: AskOptions): Promise<PermissionDecision> {
  const base = {
    type: 'permission' as const,
    toolName: request.toolName,
    input: request.input,
    raw: options.raw,
    ...(request.toolUseId ? { toolUseId: request.toolUseId } : {}),
    ...(request.tool ? { tool: request.tool } : {}),
  };
  options.emit({ ...base, phase: 'request' });
  let decision: PermissionDecision;
  try {
    const copy = { ...request, input: { ...request.input }, ...(request.tool ? { tool: { ...request.tool } } : {}) };
    const answer = await answerWithin('canUseTool', (signal) => canUseTool(copy, { signal }), options.timeoutMs, options.signal);
    if (!isDecision(answer)) throw new Error(`canUseTool returned ${JSON.stringify(answer)}; expected { behavior: 'allow' | 'deny' }`);
    const refused = options.refuses?.(answer);
    if (refused !== undefined) throw new Error(refused);
    decision = answer;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (!options.signal.aborted) {
      options.emit({ type: 'error', code: 'invalid_options', fatal: false, message: `canUseTool failed for ${request.toolName}, so the tool use was denied: ${why}`, raw: options.raw });
    }
    decision = { behavior: 'deny', message: `The host denied this tool use (${why}).` };
  }
  options.emit({
    ...base,
    phase: 'decision',
    decision: decision.behavior,
    ...(decision.behavior === 'deny' && decision.message ? { message: decision.message } : {}),
    ...(decision.behavior === 'allow' && decision.updatedInput ? { updatedInput: decision.updatedInput } : {}),
  });
  return decision;
}
