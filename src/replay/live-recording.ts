// Live recordings: every line of a live session, both ways, in the order they passed, so a replay
// can feed the CLI's side through the live translator. One JSON object per line:
//   {"meta": {...}}                    first line: what was recorded and what each turn's result was
//   {"dir": "host", "line": "<text>"}  a line the SDK wrote to the CLI's stdin
//   {"dir": "cli", "line": "<text>"}   a line the CLI printed on stdout
// A replay routes the CLI's lines as a live session does (answers and requests by the protocol's
// dialect, everything else translated, a turn ended by its last record), so it is deterministic.
import type { LiveTranslation, Translator } from '../core/contract/adapter.js';
import type { RecordedLine } from '../core/contract/recorded-line.js';
import { translateLine, translateRecord } from '../core/translate/translate-line.js';
import type { TranslatedEvent } from '../events.js';

export type { LineDirection, RecordedLine } from '../core/contract/recorded-line.js';

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

/** The id of a request line the host wrote, when it has one. */
function requestId(line: string): unknown {
  try {
    return (JSON.parse(line) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

/**
 * The events of each turn, from the CLI's lines of a recording: lines that answer the host or ask it
 * are routed away as the live channel does; the rest go through a new translator per turn. Where the
 * answer to a user message is the turn's last record (`answerRecord`), the answers to the host lines
 * that carried a turn's prompt are translated too.
 */
export function replayLiveTurns(
  spec: Pick<LiveTranslation, 'dialect' | 'endsTurn' | 'answerRecord'>,
  newTranslator: () => Translator,
  provider: string,
  recording: LiveRecording,
): TranslatedEvent[][] {
  const turns: TranslatedEvent[][] = [];
  let events: TranslatedEvent[] = [];
  let translator = newTranslator();
  const prompts = recording.meta.turns.map((turn) => JSON.stringify(turn.prompt).slice(1, -1));
  const promptRequests = new Set<unknown>();
  const take = (translated: TranslatedEvent[], record: unknown) => {
    events.push(...translated);
    if (!spec.endsTurn(record)) return;
    turns.push(events);
    events = [];
    translator = newTranslator();
  };
  for (const { dir, line } of recording.lines) {
    if (dir === 'host') {
      if (spec.answerRecord && prompts.some((prompt) => line.includes(prompt))) promptRequests.add(requestId(line));
      continue;
    }
    if (line.trim() === '') continue;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      events.push(...translateLine(translator, provider, line));
      continue;
    }
    const answer = spec.dialect.response(message);
    if (answer) {
      if (spec.answerRecord && answer.ok && promptRequests.has(answer.id)) {
        const record = spec.answerRecord(answer.result);
        take(translateRecord(translator, provider, record), record);
      }
      continue;
    }
    if (spec.dialect.incoming(message) || spec.dialect.cancelled?.(message) !== undefined) continue;
    take(translateLine(translator, provider, line), message);
  }
  if (events.length > 0) turns.push(events);
  return turns;
}
