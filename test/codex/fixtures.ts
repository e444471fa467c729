// Loads recorded Codex fixtures and replays them through the translator.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import type { SessionTarget } from '../../src/core/contract/adapter.js';
import type { TranslatedEvent } from '../../src/events.js';
import type { ResolvedOpts } from '../../src/options.js';

export const CODEX_VERSION = codexAdapter.versions.testedMax;
const dir = resolve(import.meta.dirname, '../../fixtures/codex', CODEX_VERSION);

export function fixtureLines(name: string): unknown[] {
  return readFileSync(join(dir, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export function fixtureMeta(name: string): { exitCode: number | null; signal: string | null; args: string[]; stderr: string[] } {
  return JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as never;
}

export function replay(name: string, opts: ResolvedOpts = {}, session?: SessionTarget): TranslatedEvent[] {
  const translator = codexAdapter.createTranslator(session ? { opts, session } : { opts });
  return fixtureLines(name).flatMap((record) => translator.translate(record));
}

export const types = (events: TranslatedEvent[]) => events.map((event) => event.type);
