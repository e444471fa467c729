// Copilot's pure face (coderline/replay): the prompt-mode translator, and ACP's routing and session
// translator, with nothing that starts a process or reads a file, so a recording replays in a browser too.
import type { LiveTranslation, TranslationSpec } from '../../core/contract/adapter.js';
import { acpLiveTranslation } from '../../core/acp/translation.js';
import { copilotAcpTranslation } from './acp-translate.js';
import { createCopilotTranslator } from './translate.js';

export const copilotLiveTranslation: LiveTranslation = acpLiveTranslation(copilotAcpTranslation);

export const copilotTranslation: TranslationSpec<'copilot'> = { name: 'copilot', createTranslator: createCopilotTranslator, live: copilotLiveTranslation };
