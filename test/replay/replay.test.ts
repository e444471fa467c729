// coderline/replay's API in Node: the clock it stamps with, the errors it gives, a translator of the
// caller's own, and `coderline replay` printing exactly what replay() returns for the same file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoderError, FeatureNotSupportedError, InvalidOptionsError, parseRecording, replay, replayLive, type TranslationSpec } from '../../src/replay/index.js';
import { builtInAdapters } from '../../src/registry.js';
import { builtInTranslations } from '../../src/replay/translations.js';
import { coderline, repoRoot } from '../cli/command.js';

const fixture = join(repoRoot, 'fixtures', 'codex', '0.171.0', 'reasoning.jsonl');
const lines = readFileSync(fixture, 'utf8').split('\n');
const liveRecording = parseRecording(readFileSync(join(repoRoot, 'fixtures', 'codex', '0.171.0', 'live', 'two-turns.jsonl'), 'utf8'));

describe('replay()', () => {
  it('stamps every event 0 by default, so two replays are the same bytes', () => {
    const events = replay('codex', lines);
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((event) => event.ts === 0 && event.provider === 'codex')).toBe(true);
    expect(JSON.stringify(replay('codex', lines))).toBe(JSON.stringify(events));
  });

  it('takes ts from the clock it is given, once per event in order', () => {
    let now = 1_000;
    const events = replay('codex', lines, { clock: () => (now += 5) });
    expect(events.map((event) => event.ts)).toEqual(events.map((_, index) => 1_005 + 5 * index));
    // The clock changes the stamps only.
    expect(events.map(({ ts: _ts, ...event }) => event)).toEqual(replay('codex', lines).map(({ ts: _ts, ...event }) => event));
  });

  it('replays a live recording turn by turn, with the clock too', () => {
    let tick = 0;
    const turns = replayLive('codex', liveRecording, { clock: () => tick++ });
    expect(turns.length).toBeGreaterThanOrEqual(liveRecording.meta.turns.length);
    expect(turns.flat().map((event) => event.ts)).toEqual(turns.flat().map((_, index) => index));
    expect(turns[0]!.at(-1)?.type).toBe('done');
  });

  it('translates with a TranslationSpec of the caller', () => {
    const echo: TranslationSpec<'echo'> = { name: 'echo', createTranslator: () => ({ translate: (record) => [{ type: 'message', role: 'assistant', text: String((record as { say: unknown }).say), delta: false, raw: record }] }) };
    expect(replay(echo, ['{"say":"hi"}', '', 'not json'])).toEqual([
      { type: 'message', role: 'assistant', text: 'hi', delta: false, raw: { say: 'hi' }, provider: 'echo', ts: 0 },
      { type: 'progress', kind: 'unknown', subtype: 'non_json', message: 'not json', raw: 'not json', provider: 'echo', ts: 0 },
    ]);
    expect(() => replayLive(echo, liveRecording)).toThrow(FeatureNotSupportedError);
  });

  // A recording is outside data (a file a user uploads to a page that renders it): the attacker hands
  // over any text; each shape must be a CoderError `protocol` naming the line, not a TypeError deep in
  // a replay, a hang, or events made up from a half-read file.
  it.each([
    ['empty text', ''],
    ['a first line that is not JSON', 'hello\n'],
    ['no meta', '{"lines": []}\n'],
    ['meta without turns', '{"meta": {"cli": "codex", "version": "1", "scenario": "s", "what": "w"}}\n'],
    ['a turn without a prompt', '{"meta": {"cli": "codex", "version": "1", "scenario": "s", "what": "w", "turns": [{"status": "success", "text": ""}]}}\n'],
    ['a line that is null', `${JSON.stringify({ meta: liveRecording.meta })}\nnull\n`],
    ['a line with another direction', `${JSON.stringify({ meta: liveRecording.meta })}\n{"dir": "up", "line": "{}"}\n`],
    ['a line whose text is not a string', `${JSON.stringify({ meta: liveRecording.meta })}\n{"dir": "cli", "line": {"method": "turn/completed"}}\n`],
    ['a cut-off line', `${JSON.stringify({ meta: liveRecording.meta })}\n{"dir": "cli", "li\n`],
  ])('a recording with %s is a CoderError protocol naming the line', (_what, text) => {
    let thrown: unknown;
    try {
      parseRecording(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoderError);
    expect(thrown).toMatchObject({ code: 'protocol', message: expect.stringMatching(/^not a live recording: line \d+ /) });
  });

  it('refuses an unknown CLI name with InvalidOptionsError', () => {
    expect(() => replay('nosuchcli' as 'codex', lines)).toThrow(InvalidOptionsError);
  });

  it("routes and translates with exactly what each adapter's runs and live sessions use", () => {
    for (const [cli, translation] of Object.entries(builtInTranslations)) {
      const adapter = builtInAdapters[cli as keyof typeof builtInTranslations];
      expect({ cli, same: translation.createTranslator === adapter.createTranslator }).toEqual({ cli, same: true });
      // A CLI without a live mode has no live dialect to replay either.
      expect({ cli, live: translation.live !== undefined }).toEqual({ cli, live: adapter.live !== undefined });
      if (!translation.live) continue;
      for (const [key, value] of Object.entries(translation.live!)) expect({ cli, key, same: adapter.live?.[key as keyof typeof translation.live] === value }).toEqual({ cli, key, same: true });
    }
  });

  it('is what `coderline replay` prints for the same file', async () => {
    const printed = await coderline(['replay', '--cli', 'codex', fixture]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(replay('codex', lines).map((event) => `${JSON.stringify(event)}\n`).join(''));
  });
});
