// What one ACP agent's records need beyond the protocol: the few habits that differ between agents
// (how it words its own notices and failed model calls in the message stream, how it counts tokens,
// what its tool kinds mean). Types only: an agent's preset fills them in, the translator reads them.
import type { ProgressKind, Usage } from '../../events.js';
import type { JsonObject } from '../../schema/json.js';
import type { ToolCatalog } from '../contract/tool-catalog.js';

/** A failed model call the agent reported as text. */
export interface AcpFailure {
  message: string;
  httpStatus?: number;
}

export interface AcpTranslationSpec {
  /** The agent's name in the SDK's messages ("<agent> ended the turn: refusal"). */
  agent: string;
  /**
   * A whole message chunk that is the agent's own notice (a retry, a cancelled operation), not the
   * model's text: it becomes this progress event instead.
   */
  notice?(chunk: string): { kind: ProgressKind; subtype: string; message: string } | undefined;
  /**
   * A whole message chunk that reports a failed model call: when the model wrote no text of its own
   * in the turn and the turn ends on it, the turn fails with this; otherwise it is text like any other.
   */
  failure?(chunk: string): AcpFailure | undefined;
  /**
   * A refused `session/prompt` that reports a failed model call (`message`: its JSON-RPC error's, in
   * a live session after the channel's "<agent> refused a request: "): the turn fails with the code
   * of that failure instead of `protocol`.
   */
  promptRefusal?(message: string): AcpFailure | undefined;
  /** The prompt answer's token counts are totals of the session: each turn's usage is the difference. */
  usageIsSessionTotal?: boolean;
  /** The token counts of a prompt answer (`session/prompt`'s result); default: ACP's `usage` field. */
  usage?(answer: JsonObject): Usage | undefined;
  /**
   * The agent's own name of the tool a call runs, where its records carry one beside the ACP kind
   * (the tool bridge matches its calls with the CLI's records by that name).
   */
  cliToolName?(toolCall: JsonObject): string | undefined;
  /**
   * The MCP server tool a call runs (its ACP kind is `other`), read from where the agent names it
   * (mcpCallOf in tool-facts.ts splits the name by the run's `servers`, longest first).
   */
  mcpCall?(toolCall: JsonObject, servers: readonly string[]): AcpMcpCall | undefined;
  /**
   * A `tool_call` may come before its input (OpenCode: `pending` with an empty `rawInput`, the input in
   * the next update): its tool_use then waits for the update that gives it, or for any other record.
   */
  inputFollows?: boolean;
  /** The agent's ACP kinds as tools (default: the protocol's, acpToolCatalog in tool-facts.ts). */
  toolCatalog?: ToolCatalog;
}

/** A call of an MCP server's tool, as an ACP agent's records name it. */
export interface AcpMcpCall {
  server: string;
  tool: string;
  /** The agent's own name of the tool (Copilot: `<server>-<tool>`). */
  cliName: string;
  /** The call's input, where the agent gives it elsewhere than `rawInput` (Gemini: as the call's content, JSON text). */
  input?: unknown;
}
