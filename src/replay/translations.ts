// The built-in adapters' pure faces by name: what coderline/replay translates with. Beside
// registry.ts (the adapters themselves) rather than through it, because an adapter's index brings
// its process face too: argv, spawn, the file system.
import { claudeTranslation } from '../adapters/claude/translation.js';
import { codexTranslation } from '../adapters/codex/translation.js';
import { copilotTranslation } from '../adapters/copilot/translation.js';
import { geminiTranslation } from '../adapters/gemini/translation.js';
import { opencodeTranslation } from '../adapters/opencode/translation.js';
import { piTranslation } from '../adapters/pi/translation.js';
import type { TranslationSpec } from '../core/contract/adapter.js';
import type { ProviderName } from '../events.js';

export const builtInTranslations: { readonly [P in ProviderName]: TranslationSpec<P> } = {
  claude: claudeTranslation,
  codex: codexTranslation,
  copilot: copilotTranslation,
  pi: piTranslation,
  gemini: geminiTranslation,
  opencode: opencodeTranslation,
};
