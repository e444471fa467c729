// One stdout line → events, the same way for a live run and for a replay: blank lines carry
// nothing, a line that is not JSON is kept as a progress event with its text, and a translator that
// throws yields an error event instead of a crash.
import type { TranslatedEvent } from '../../events.js';
import type { Translator } from '../contract/adapter.js';

/** What a line that is not JSON becomes. */
export function nonJsonLine(line: string): TranslatedEvent {
  return { type: 'progress', kind: 'unknown', subtype: 'non_json', message: line, raw: line };
}

export function translateLine(translator: Translator, provider: string, line: string): TranslatedEvent[] {
  if (line.trim() === '') return [];
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return [nonJsonLine(line)];
  }
  return translateRecord(translator, provider, record);
}

/** A record already parsed (a live session parses each line once, to route it). */
export function translateRecord(translator: Translator, provider: string, record: unknown): TranslatedEvent[] {
  try {
    return translator.translate(record);
  } catch (error) {
    return [{ type: 'error', code: 'protocol', fatal: false, message: `could not translate a ${provider} record: ${String(error)}`, raw: record }];
  }
}
