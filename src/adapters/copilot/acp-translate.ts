// Copilot's habits in its ACP records (`copilot --acp`); the protocol itself is core/acp/translate.ts.
// Facts this relies on (cli-notes/copilot.md "Live mode (probed)", test/copilot/live.test.ts):
// - the token counts in a prompt's answer are totals of the session so far (22 → 44 → 66 over three
//   prompts on 1.0.102): each turn's usage is the difference to the previous answer;
// - a failed model call has no record or field of its own: Copilot writes "Error: <why>" as one whole
//   message chunk and answers `end_turn`;
// - Copilot's own notices (what one-shot output carries as `session.info` records: a retry, a
//   cancelled operation, the path of plan mode's plan.md) are one whole chunk "Info: <message>" each;
// - a shell command that exits non-zero still says `completed` (its exit code is in rawOutput.contents);
// - an MCP tool's call is kind `other`, titled `<server>-<tool>`.
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import type { AcpTranslationSpec } from '../../core/acp/dialect.js';
import { createAcpTranslator } from '../../core/acp/translate.js';
import { mcpCallOf } from '../../core/acp/tool-facts.js';
import { stringOf } from '../../schema/json.js';
import { copilotAcpToolCatalog } from './tool-facts.js';

/**
 * Copilot's notices, written into the message stream as single whole chunks (1.0.102, measured against
 * HTTP 400, 401, 429, 500 and dropped connections, an interrupt, a denied tool call and plan mode; the
 * session store has `session.info` / `session.error` records, but ACP sends nothing but this text).
 * Text is all there is, so only a chunk that is the whole notice counts, and an error only where the
 * model wrote no text of its own in the turn. An info notice is the same progress event the one-shot
 * adapter makes of a `session.info` record, never answer text (taken for text, plan mode's
 * "Info: …/plan.md" ran into the model's answer).
 */
const INFO_NOTICE = /^Info: ([^\n]+)$/;
const RETRY_NOTICE = /Retrying\.\.\.$/;
const ERROR_PREFIX = 'Error: ';

/** Where Copilot's error texts put the HTTP status: "400 bad request", "… (HTTP 401).", "… Last error: 500 boom". */
const STATUS_PATTERNS = [/^(\d{3}) /, /\(HTTP (\d{3})\)/, /Last error: (\d{3}) /];

function httpStatusOf(message: string): number | undefined {
  const match = STATUS_PATTERNS.map((pattern) => pattern.exec(message)).find((found) => found !== null);
  return match ? Number(match[1]) : undefined;
}

export const copilotAcpTranslation: AcpTranslationSpec = {
  agent: 'copilot',
  notice(chunk) {
    const message = INFO_NOTICE.exec(chunk)?.[1];
    return message === undefined ? undefined : { kind: RETRY_NOTICE.test(message) ? 'retry' : 'status', subtype: 'session.info', message };
  },
  failure(chunk) {
    if (!chunk.startsWith(ERROR_PREFIX)) return undefined;
    const message = chunk.slice(ERROR_PREFIX.length);
    const httpStatus = httpStatusOf(message);
    return httpStatus === undefined ? { message } : { message, httpStatus };
  },
  usageIsSessionTotal: true,
  toolCatalog: copilotAcpToolCatalog,
  // An MCP tool's call is titled `<server>-<tool>` (1.0.102: `coderline-lookup`).
  mcpCall: (toolCall, servers) => mcpCallOf(stringOf(toolCall.title), servers, '-'),
};

export const createCopilotAcpTranslator = (ctx: TranslatorContext): Translator => createAcpTranslator(copilotAcpTranslation, ctx);
