// Live recordings (fixtures/<cli>/<version>/live/, from `npm run record -- --live`) replayed through
// each CLI's live translator: the same turns, answers and tool uses the live session saw, every time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdapterSpec, LiveSpec } from '../../src/core/contract/adapter.js';
import { parseRecording, type LiveRecording } from '../../src/replay/live-recording.js';
import { builtInAdapters } from '../../src/registry.js';
import { replayTurns, trackerOf } from '../support/live-replay.js';

const fixtures = resolve(import.meta.dirname, '../../fixtures');

interface Recorded {
  adapter: AdapterSpec;
  spec: LiveSpec;
  file: string;
  recording: LiveRecording;
}

function recordings(): Recorded[] {
  const found: Recorded[] = [];
  for (const adapter of Object.values(builtInAdapters) as AdapterSpec[]) {
    const spec = adapter.live;
    if (!spec) continue;
    for (const version of readdirSync(join(fixtures, adapter.name))) {
      const dir = join(fixtures, adapter.name, version, 'live');
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir).filter((file) => file.endsWith('.jsonl'))) {
        const file = join(dir, name);
        found.push({ adapter, spec, file: `${adapter.name}/${version}/live/${name}`, recording: parseRecording(readFileSync(file, 'utf8')) });
      }
    }
  }
  return found;
}

const replay = ({ adapter, recording }: Recorded) => replayTurns(adapter, recording);

const all = recordings();

describe('live recordings replay', () => {
  it('there are recordings of each CLI that has a live mode', () => {
    const clis = new Set(all.map((recorded) => recorded.adapter.name));
    for (const adapter of Object.values(builtInAdapters) as AdapterSpec[]) if (adapter.live) expect(clis).toContain(adapter.name);
  });

  describe.each(all.map((recorded) => [recorded.file, recorded] as const))('%s', (_file, recorded) => {
    const { meta, lines } = recorded.recording;

    it('keeps both directions: what the host wrote and what the CLI printed', () => {
      expect(lines.some((line) => line.dir === 'host')).toBe(true);
      expect(lines.some((line) => line.dir === 'cli')).toBe(true);
    });

    it('replays into the turns the session had, each with the answer it returned', () => {
      const turns = replay(recorded);
      expect(turns.length).toBeGreaterThanOrEqual(meta.turns.length);
      meta.turns.forEach((turn, index) => {
        const tracker = trackerOf(recorded.adapter, turns[index] ?? []);
        // A failed turn replays as failed: no recorded failure may turn into a success.
        if (turn.status === 'error') expect(tracker.done?.status).toBe('error');
        if (turn.status !== 'success') return;
        expect(tracker.done?.status).toBe('success');
        expect(tracker.text).toBe(turn.text);
      });
    });

    it('is deterministic', () => {
      expect(replay(recorded)).toEqual(replay(recorded));
    });

    it('every question the CLI asked is answered by a host line with its id, and the tool use is in the events', () => {
      const { dialect, permission } = recorded.spec;
      const asked = lines.filter((line) => line.dir === 'cli').map((line) => dialect.incoming(JSON.parse(line.line))).filter((question) => question !== undefined);
      if (!meta.scenario.startsWith('tool-')) return;
      expect(asked.length).toBeGreaterThan(0);
      const events = replay(recorded).flat();
      for (const question of asked) {
        const request = permission.request(question.body);
        // pi's questions come from the SDK's extension, whose dialog the codec reads.
        expect(request?.toolName).toBeTruthy();
        // Our reply reads like an answer in most dialects; pi's names the question's (unique) id.
        const answered = lines
          .filter((line) => line.dir === 'host')
          .some((line) => dialect.response(JSON.parse(line.line))?.id === question.id || (typeof question.id === 'string' && line.line.includes(JSON.stringify(question.id))));
        expect(answered).toBe(true);
        expect(events.some((event) => event.type === 'tool_use')).toBe(true);
      }
    });
  });
});
