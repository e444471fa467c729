// The built-in adapters by name. Anything else with the AdapterSpec shape can be passed directly.
import { claudeAdapter } from './adapters/claude/index.js';
import { codexAdapter } from './adapters/codex/index.js';
import { copilotAdapter } from './adapters/copilot/index.js';
import { geminiAdapter } from './adapters/gemini/index.js';
import { opencodeAdapter } from './adapters/opencode/index.js';
import { piAdapter } from './adapters/pi/index.js';
import type { AdapterSpec } from './core/contract/adapter.js';
import { InvalidOptionsError } from './errors.js';
import type { ProviderName } from './events.js';

export const builtInAdapters: { readonly [P in ProviderName]: AdapterSpec<P> } = {
  claude: claudeAdapter,
  codex: codexAdapter,
  copilot: copilotAdapter,
  pi: piAdapter,
  gemini: geminiAdapter,
  opencode: opencodeAdapter,
};

export type CliRef<P extends string> = P | AdapterSpec<P>;

export function resolveAdapter<P extends string>(cli: CliRef<P>): AdapterSpec<P> {
  if (typeof cli !== 'string') return cli;
  const adapter = (builtInAdapters as Partial<Record<string, AdapterSpec<string>>>)[cli];
  if (!adapter) throw new InvalidOptionsError([`unknown CLI "${cli}"; choose one of: ${Object.keys(builtInAdapters).join(', ')}`]);
  return adapter as AdapterSpec<P>;
}
