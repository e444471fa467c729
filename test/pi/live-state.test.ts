// pi live-session state end to end (real `pi --mode rpc` on the pinned Node 22, fake chat-completions
// server): busy / queued, steer() before, during and after a turn, the idle and exit notices.
import { describe, it } from 'vitest';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { fakeForLive, openLive } from '../support/live.js';
import { expectDeathBetweenTurnsNoticed, expectSteerStates, steerScript } from '../support/live-state.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', input: { command }, id: 'call_state_1' }] });

describe('pi live session state', () => {
  it('busy, queued, steer before / during / after a turn, idle; then a SIGKILL between turns is noticed at once', async () => {
    const { model, opts } = await fakeForLive('pi', steerScript(bash('sleep 3')), 120_000);
    const live = await openLive(piAdapter, withPinnedRuntime('pi', opts));
    await expectSteerStates(live, model);
    await expectDeathBetweenTurnsNoticed(live);
  });
});
