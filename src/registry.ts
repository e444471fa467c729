// The built-in adapters by name. Anything else with the AdapterSpec shape can be passed directly.
import { claudeAdapter } from './adapters/claude/index.js';
import type { AdapterSpec } from './core/adapter.js';
import { InvalidOptionsError } from './errors.js';
import type { ProviderName } from './events.js';

const builtIn: Partial<Record<ProviderName, AdapterSpec<ProviderName>>> = {
  claude: claudeAdapter,
};

export type CliRef<P extends string> = P | AdapterSpec<P>;

export function resolveAdapter<P extends string>(cli: CliRef<P>): AdapterSpec<P> {
  if (typeof cli !== 'string') return cli;
  const adapter = builtIn[cli as ProviderName];
  if (!adapter) throw new InvalidOptionsError([`unknown CLI "${cli}"; choose one of: ${Object.keys(builtIn).join(', ')}`]);
  return adapter as unknown as AdapterSpec<P>;
}
