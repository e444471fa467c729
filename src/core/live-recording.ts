// Live recordings: every line of a live session, both ways, in the order they passed, so a replay
// can feed the CLI's side through the live translator. One JSON object per line:
//   {"meta": {...}}                    first line: what was recorded and what each turn's result was
//   {"dir": "host", "line": "<text>"}  a line the SDK wrote to the CLI's stdin
//   {"dir": "cli", "line": "<text>"}   a line the CLI printed on stdout
// A replay routes the CLI's lines as a live session does (answers and requests by the protocol's
// dialect, everything else translated, a turn ended by its last record), so it is deterministic.
import type { TranslatedEvent } from '../events.js';
import type { LiveSpec, Translator } from './adapter.js';
import { translateLine } from './translate-line.js';

export type LineDirection = 'host' | 'cli';

export interface RecordedLine {
  dir: LineDirection;
  line: string;
}

/** What a recording says about itself. */
export interface RecordingMeta {
  cli: string;
  version: string;
  scenario: string;
  what: string;
  /** Each turn's result as the live session returned it. */
  turns: Array<{ prompt: string; status: string; text: string }>;
}

export interface LiveRecording {
  meta: RecordingMeta;
  lines: RecordedLine[];
}

export function formatRecording(recording: LiveRecording): string {
  return [JSON.stringify({ meta: recording.meta }), ...recording.lines.map((line) => JSON.stringify(line))].join('\n') + '\n';
}

export function parseRecording(text: string): LiveRecording {
  const [head, ...rest] = text.split('\n').filter((line) => line.trim() !== '');
  const meta = (JSON.parse(head ?? '{}') as { meta?: RecordingMeta }).meta;
  if (!meta) throw new Error('a live recording starts with its {"meta": …} line');
  return { meta, lines: rest.map((line) => JSON.parse(line) as RecordedLine) };
}

/**
 * The events of each turn, from the CLI's lines of a recording: lines that answer the host or ask it
 * are routed away as the live channel does; the rest go through a new translator per turn.
 */
export function replayLive(spec: Pick<LiveSpec, 'dialect' | 'endsTurn'>, newTranslator: () => Translator, provider: string, recording: LiveRecording): TranslatedEvent[][] {
  const turns: TranslatedEvent[][] = [];
  let events: TranslatedEvent[] = [];
  let translator = newTranslator();
  for (const { dir, line } of recording.lines) {
    if (dir !== 'cli' || line.trim() === '') continue;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      events.push(...translateLine(translator, provider, line));
      continue;
    }
    if (spec.dialect.response(message) || spec.dialect.incoming(message) || spec.dialect.cancelled?.(message) !== undefined) continue;
    events.push(...translateLine(translator, provider, line));
    if (!spec.endsTurn(message)) continue;
    turns.push(events);
    events = [];
    translator = newTranslator();
  }
  if (events.length > 0) turns.push(events);
  return turns;
}
