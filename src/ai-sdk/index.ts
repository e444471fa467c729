// coderline/ai-sdk: every coderline CLI as a Vercel AI SDK language model, for generateText,
// streamText and Output.object. Only types come from @ai-sdk/provider (an optional peer): an app that
// does not import this entry loads nothing of it.
import type { AdapterSpec, ProviderName } from '../index.js';
import { CoderlineLanguageModel, type CoderlineModelSettings } from './language-model.js';

/** The CLI name a model runs: an adapter's own, or the built-in name given. */
type NameOf<C> = C extends AdapterSpec<infer P> ? P : C & string;

/**
 * A language model that runs `cli` (a built-in CLI's name or an adapter) as an agent: each call is one
 * turn of a coderline session with these settings (coderline's start options; `tools` are AI SDK tools).
 */
export function coderline<C extends ProviderName | AdapterSpec<string>>(cli: C, settings?: CoderlineModelSettings<NameOf<C>>): CoderlineLanguageModel<NameOf<C>> {
  return new CoderlineLanguageModel<NameOf<C>>(cli as never, settings);
}

export { CoderlineLanguageModel, type CoderlineCallOptions, type CoderlineModelSettings } from './language-model.js';
export type { AiSdkTool } from './tools.js';
