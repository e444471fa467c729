// OpenCode's habits in its ACP records (`opencode acp`, 1.18.33); the protocol itself is
// core/acp/translate.ts. Its tool calls carry ACP kinds (bash → execute, read → read, edit and write
// → edit, glob and grep → search, webfetch → fetch) and the prompt's answer ACP's own `usage`
// (that prompt's tokens), so the shared defaults serve.
import type { AcpTranslationSpec } from '../../core/acp/dialect.js';

export const opencodeAcpTranslation: AcpTranslationSpec = { agent: 'opencode' };
