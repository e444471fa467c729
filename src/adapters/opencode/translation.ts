// OpenCode's pure face (coderline/replay): the `run --format json` translator, and ACP's routing and
// session translator, with nothing that starts a process or reads a file.
import type { TranslationSpec } from '../../core/contract/adapter.js';
import { acpLiveTranslation } from '../../core/acp/translation.js';
import { opencodeAcpTranslation } from './acp-translate.js';
import { createOpencodeTranslator } from './translate.js';

export const opencodeTranslation: TranslationSpec<'opencode'> = { name: 'opencode', createTranslator: createOpencodeTranslator, live: acpLiveTranslation(opencodeAcpTranslation) };
