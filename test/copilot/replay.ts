// Feeds a recorded fixture (real copilot stdout) through the translator.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import type { TranslatedEvent } from '../../src/events.js';
import type { ResolvedOpts } from '../../src/options.js';
import { ofType } from '../support/events.js';

export const fixtureDir = join(import.meta.dirname, '..', '..', 'fixtures', 'copilot', '1.0.102');

export function fixtureNames(): string[] {
  return readdirSync(fixtureDir).filter((file) => file.endsWith('.jsonl')).map((file) => file.replace(/\.jsonl$/, ''));
}

export function fixtureRecords(name: string): unknown[] {
  return readFileSync(join(fixtureDir, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as unknown);
}

export function fixtureMeta(name: string): { exitCode: number | null; signal: string | null; args: string[]; modelCalls: number } {
  return JSON.parse(readFileSync(join(fixtureDir, `${name}.meta.json`), 'utf8')) as ReturnType<typeof fixtureMeta>;
}

export function replay(name: string, opts: ResolvedOpts = {}): TranslatedEvent[] {
  return replayRecords(fixtureRecords(name), opts);
}

export function replayRecords(records: unknown[], opts: ResolvedOpts = {}): TranslatedEvent[] {
  const translator = copilotAdapter.createTranslator({ opts });
  return records.flatMap((record) => translator.translate(record));
}


/** Text a consumer assembles from deltas, honouring resets. */
export function assembledDeltas(events: TranslatedEvent[]): string {
  let text = '';
  for (const event of ofType(events, 'message')) {
    if (!event.delta) continue;
    if (event.reset) text = '';
    text += event.text;
  }
  return text;
}
