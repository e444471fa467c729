// The run's final record, when a CLI compacts after what looked like its end: the recorded runs of
// the real binaries (opencode 1.18.33 summarizes in a step that ends like a last one; pi 1.6.0
// compacts after its answer), and the rule itself on events made here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunTracker } from '../../src/core/stream/run-tracker.js';
import type { CoderStreamEvent, ProviderName } from '../../src/events.js';
import { replay } from '../../src/replay/replay.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');

function trackerOf(cli: ProviderName, path: string): RunTracker {
  const tracker = new RunTracker();
  for (const event of replay(cli, readFileSync(join(fixtures, cli, path), 'utf8').split('\n'))) tracker.observe(event);
  return tracker;
}

describe('a compaction after the final record', () => {
  it('opencode: the answer is the one after the summary step, not the summary', () => {
    const tracker = trackerOf('opencode', '1.18.33/compaction.jsonl');
    expect(tracker.done).toMatchObject({ status: 'success', text: 'Done after compaction.' });
    expect(tracker.text).toBe('Done after compaction.');
  });

  it('pi: the answer before the compaction stays the answer', () => {
    const tracker = trackerOf('pi', '1.6.0/compaction-after-answer.jsonl');
    expect(tracker.done).toMatchObject({ status: 'success', text: 'A long answer.' });
  });

  it('reopens only a success: a failed run stays failed, whatever follows', () => {
    const tracker = new RunTracker();
    const events: CoderStreamEvent[] = [
      { type: 'done', status: 'error', provider: 'pi', ts: 0, raw: null },
      { type: 'compaction', phase: 'completed', trigger: 'auto', provider: 'pi', ts: 0, raw: null },
    ];
    for (const event of events) tracker.observe(event);
    expect(tracker.done?.status).toBe('error');
  });

  it('a success followed by a compaction and no final record has no final record', () => {
    const tracker = new RunTracker();
    tracker.observe({ type: 'done', status: 'success', text: 'Looked final.', provider: 'opencode', ts: 0, raw: null });
    tracker.observe({ type: 'compaction', phase: 'completed', trigger: 'auto', provider: 'opencode', ts: 0, raw: null });
    expect(tracker.done).toBeUndefined();
  });
});
