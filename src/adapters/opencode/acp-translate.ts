// OpenCode's habits in its ACP records (`opencode acp`, 1.18.33); the protocol itself is
// core/acp/translate.ts. Its tool calls carry ACP kinds (bash → execute, read → read, edit and write
// → edit, glob and grep → search, webfetch → fetch) and the prompt's answer ACP's own `usage` (that
// prompt's tokens), so the shared defaults serve. A failed model call (once its retries are spent) is
// the prompt's JSON-RPC error `-32603 "Internal error: <the API's message>"` with `data.errorName:
// "APIError"`; the HTTP status is not in it, so the message says what kind of failure it was. An MCP
// tool's call is kind `other`, titled `<server>_<tool>` as in its one-shot records.
import type { AcpTranslationSpec } from '../../core/acp/dialect.js';
import { mcpCallOf } from '../../core/acp/tool-facts.js';
import { stringOf } from '../../schema/json.js';

/** After the live channel's "opencode refused a request: " where there is one. */
const INTERNAL = /(?:^|: )Internal error: (.*)$/s;

export const opencodeAcpTranslation: AcpTranslationSpec = {
  agent: 'opencode',
  promptRefusal: (message) => {
    const api = INTERNAL.exec(message)?.[1];
    return api === undefined ? undefined : { message: api };
  },
  mcpCall: (toolCall, servers) => mcpCallOf(stringOf(toolCall.title), servers, '_'),
  // A call is announced `pending` with `rawInput: {}`; its input comes with the `in_progress` update.
  inputFollows: true,
};
