// start(cli, options): a session that owns its coder, closed (with the coder's private state) by
// close() or by leaving an `await using` block.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OwnedSession, Session, start, type CoderStreamEvent } from '../../src/index.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';

/** The fake CLI, told where its coder's private state dir is (FAKE_STATE_DIR, created on demand). */
const stateful = fakeAdapter({
  buildInvocation: async (ctx) => ({ args: [], stdin: ctx.prompt, env: { FAKE_STATE_DIR: await ctx.coderStateDir() } }),
});
const showState = script([{ echoEnv: ['FAKE_STATE_DIR'] }, { sleep: 300 }, { out: { type: 'init', sessionId: 'owned-1' } }, done('ok')]);

function stateDirOf(events: CoderStreamEvent<string>[] | undefined): string {
  const env = events?.find((e) => e.type === 'progress' && e.subtype === 'env')?.raw as { env: { FAKE_STATE_DIR: string } } | undefined;
  if (!env) throw new Error('the fake CLI did not report its state dir');
  return env.env.FAKE_STATE_DIR;
}

describe('start()', () => {
  it('returns a session typed for the CLI; leaving `await using` removes its coder\'s private state', async () => {
    let stateDir: string;
    {
      await using session = start(stateful, showState);
      expect(session).toBeInstanceOf(Session);
      const result = await session.run('hi', { collectEvents: true });
      const provider: 'fake' = result.provider;
      expect({ provider, status: result.status, text: result.text }).toEqual({ provider: 'fake', status: 'success', text: 'ok' });
      expect(session.id).toBe('owned-1');
      stateDir = stateDirOf(result.events);
      expect(existsSync(stateDir)).toBe(true);
    }
    expect(existsSync(stateDir)).toBe(false);
  });

  it('close() waits for the turns already asked for (run and stream), then closes the coder', async () => {
    const session: OwnedSession<'fake'> = start(stateful, showState);
    const first = session.run('one', { collectEvents: true });
    const second = session.stream('two', { collectEvents: true });
    await session.close();
    const [a, b] = [await first, await second.result];
    expect([a.status, b.status]).toEqual(['success', 'success']);
    expect(stateDirOf(b.events)).toBe(stateDirOf(a.events));
    expect(existsSync(stateDirOf(a.events))).toBe(false);
    // Closing again is harmless.
    await session.close();
  });

  it('rejects options the CLI cannot honour before anything runs', () => {
    expect(() => start(fakeAdapter(), { maxBudgetUsd: 1 })).toThrow(/maxBudgetUsd/);
  });
});
