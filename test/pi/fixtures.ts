// Replays recorded pi output (fixtures/pi/<version>/*.jsonl, written by `npm run record -- pi`)
// through the translator, as the core would: one parsed line at a time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranslatedEvent } from '../../src/events.js';
import type { ResolvedOpts } from '../../src/options.js';
import { createPiTranslator } from '../../src/adapters/pi/translate.js';

export const FIXTURE_ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'pi');

/** Versions with a full `npm run record` set (the others hold only the sweep's compat/ recordings). */
export function fixtureVersions(): string[] {
  return readdirSync(FIXTURE_ROOT).filter((version) => existsSync(join(FIXTURE_ROOT, version, 'text.jsonl'))).sort();
}

export function fixtureLines(version: string, name: string): unknown[] {
  return readFileSync(join(FIXTURE_ROOT, version, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export function replay(records: unknown[], opts: ResolvedOpts = {}): TranslatedEvent[] {
  const translator = createPiTranslator({ opts });
  return records.flatMap((record) => translator.translate(record));
}

