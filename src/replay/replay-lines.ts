// Raw stdout lines of a CLI → the events a run would yield, through the adapter's pure translator.
// Deterministic: every event gets ts 0, so two replays give the same bytes. `coderline replay` and
// the probe's drift analysis both replay this way.
import type { CoderStreamEvent, ProviderName, TranslatedEvent } from '../events.js';
import type { SessionTarget } from '../core/contract/adapter.js';
import { translateLine } from '../core/translate/translate-line.js';
import type { OneShotOpts } from '../options.js';
import { builtInAdapters } from '../registry.js';

/** Translates raw stdout lines the way a live run does: blank lines skipped, non-JSON lines kept as progress. */
export function replayLines(cli: ProviderName, lines: readonly string[], header?: { opts: OneShotOpts; session: SessionTarget }): CoderStreamEvent<string>[] {
  const adapter = builtInAdapters[cli];
  const translator = adapter.createTranslator({ opts: header?.opts ?? {}, session: header?.session ?? { kind: 'new' } });
  const stamp = (event: TranslatedEvent) => ({ ...event, provider: cli, ts: 0 }) as CoderStreamEvent<string>;
  return lines.flatMap((line) => translateLine(translator, cli, line).map(stamp));
}
