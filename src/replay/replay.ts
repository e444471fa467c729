// Recorded lines → the events a run would yield, through an adapter's pure translator. `ts` comes
// from the caller's clock, by default 0 for every event, so two replays of the same lines give the
// same bytes (a counter would too, but 0 says plainly that the time was not recorded).
import type { SessionTarget, TranslationSpec } from '../core/contract/adapter.js';
import { translateLine } from '../core/translate/translate-line.js';
import { FeatureNotSupportedError, InvalidOptionsError } from '../errors.js';
import type { CoderStreamEvent, ProviderName, TranslatedEvent } from '../events.js';
import type { OneShotOpts } from '../options.js';
import { replayLiveTurns, type LiveRecording } from './live-recording.js';
import { builtInTranslations } from './translations.js';

/** Each event's `ts`, asked once per event in order. */
export type ReplayClock = () => number;

export interface ReplayOptions {
  /** Default: every event gets ts 0, so a replay is byte-for-byte deterministic. */
  clock?: ReplayClock;
  /** The options the run was started with (a recording's header keeps those a translator reads). */
  opts?: OneShotOpts;
  /** How the run related to earlier ones (some translators check a resume). Default: a new session. */
  session?: SessionTarget;
}

/** A built-in CLI by name, or another adapter's pure face. */
export type TranslationRef<P extends string> = P | TranslationSpec<P>;

const zeroClock: ReplayClock = () => 0;

function translationOf<P extends string>(cli: TranslationRef<P>): TranslationSpec<P> {
  if (typeof cli !== 'string') return cli;
  const translation = (builtInTranslations as Partial<Record<string, TranslationSpec<string>>>)[cli];
  if (!translation) throw new InvalidOptionsError([`unknown CLI "${cli}"; choose one of: ${Object.keys(builtInTranslations).join(', ')}`]);
  return translation as TranslationSpec<P>;
}

const stamper = <P extends string>(provider: P, clock: ReplayClock) => (event: TranslatedEvent) => ({ ...event, provider, ts: clock() }) as CoderStreamEvent<P>;

/** Translates a CLI's stdout lines the way a run does: blank lines skipped, non-JSON lines kept as progress. */
export function replay<P extends string = ProviderName>(cli: TranslationRef<P>, lines: readonly string[], options: ReplayOptions = {}): CoderStreamEvent<P>[] {
  const translation = translationOf(cli);
  const translator = translation.createTranslator({ opts: options.opts ?? {}, session: options.session ?? { kind: 'new' } });
  const stamp = stamper(translation.name, options.clock ?? zeroClock);
  return lines.flatMap((line) => translateLine(translator, translation.name, line).map(stamp));
}

/**
 * Each turn's events of a live recording, routed as the live session routed them (answers and
 * requests of the protocol set aside, a turn ended by its last record). A protocol whose translator
 * spans the session (Copilot's ACP) keeps one for the whole recording. `opts`: those the session was
 * opened with, as for replay().
 */
export function replayLive<P extends string = ProviderName>(cli: TranslationRef<P>, recording: LiveRecording, options: Pick<ReplayOptions, 'clock' | 'opts'> = {}): CoderStreamEvent<P>[][] {
  const translation = translationOf(cli);
  const live = translation.live;
  if (!live) throw new FeatureNotSupportedError(translation.name, 'live', 'replay its one-shot lines with replay()');
  // The session's options: its own tools and MCP servers are what names an ACP agent's MCP calls.
  const ctx = { opts: options.opts ?? {} };
  const shared = live.createSessionTranslator?.(ctx);
  const newTranslator = () => shared ?? (live.createTranslator ?? translation.createTranslator)(ctx);
  const stamp = stamper(translation.name, options.clock ?? zeroClock);
  return replayLiveTurns(live, newTranslator, translation.name, recording).map((turn) => turn.map(stamp));
}
