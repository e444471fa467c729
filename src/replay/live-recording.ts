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
import { CoderError } from '../errors.js';
import type { TranslatedEvent } from '../events.js';
import { isJsonObject } from '../schema/json.js';

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

/** A recording is outside data: any other shape is a CoderError `protocol` naming the line, never a crash later in a replay. */
function malformed(lineNumber: number, what: string): CoderError {
  return new CoderError('protocol', `not a live recording: line ${lineNumber} ${what}`);
}

function parsedLine(text: string, lineNumber: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformed(lineNumber, 'is not JSON');
  }
}

function recordingMeta(value: unknown): RecordingMeta {
  const meta = isJsonObject(value) ? value.meta : undefined;
  if (!isJsonObject(meta)) throw malformed(1, 'is not its {"meta": …} line');
  const turns = meta.turns;
  const isTurn = (turn: unknown) => isJsonObject(turn) && typeof turn.prompt === 'string' && typeof turn.status === 'string' && typeof turn.text === 'string';
  if (!(['cli', 'version', 'scenario', 'what'] as const).every((key) => typeof meta[key] === 'string') || !Array.isArray(turns) || !turns.every(isTurn)) {
    throw malformed(1, 'lacks cli, version, scenario, what (strings) or turns ({ prompt, status, text } each)');
  }
  return meta as unknown as RecordingMeta;
}

export function parseRecording(text: string): LiveRecording {
  const numbered = text.split('\n').map((line, index) => ({ line, number: index + 1 })).filter(({ line }) => line.trim() !== '');
  const [head, ...rest] = numbered;
  if (!head) throw malformed(1, 'is missing: the text is empty');
  const meta = recordingMeta(parsedLine(head.line, head.number));
  const lines = rest.map(({ line, number }): RecordedLine => {
    const value = parsedLine(line, number);
    if (!isJsonObject(value) || (value.dir !== 'host' && value.dir !== 'cli') || typeof value.line !== 'string') throw malformed(number, 'is not {"dir": "host" | "cli", "line": string}');
    return { dir: value.dir, line: value.line };
  });
  return { meta, lines };
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
  spec: Pick<LiveTranslation, 'dialect' | 'endsTurn' | 'answerRecord' | 'refusalRecord' | 'questionsAreRecords'>,
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
      const record = !spec.answerRecord || !promptRequests.has(answer.id) ? undefined : answer.ok ? spec.answerRecord(answer.result) : spec.refusalRecord?.(answer.error);
      if (record !== undefined) take(translateRecord(translator, provider, record), record);
      continue;
    }
    const question = spec.dialect.incoming(message);
    if (question && spec.questionsAreRecords) take(translateRecord(translator, provider, question.body), question.body);
    if (question || spec.dialect.cancelled?.(message) !== undefined) continue;
    take(translateLine(translator, provider, line), message);
  }
  if (events.length > 0) turns.push(events);
  return turns;
}
