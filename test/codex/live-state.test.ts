// Codex live-session state end to end (real `codex app-server`, fake Responses server): busy / queued,
// steer() before, during and after a turn, the idle and exit notices.
import { describe, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { fakeForLive, openLive } from '../support/live.js';
import { expectDeathBetweenTurnsNoticed, expectSteerStates, steerScript } from '../support/live-state.js';

const shell = (cmd: string) => ({ toolCalls: [{ name: 'exec_command', input: { cmd }, id: 'call_state_1' }] });

describe('codex live session state', () => {
  it('busy, queued, steer before / during / after a turn, idle; then a SIGKILL between turns is noticed at once', async () => {
    const { model, opts } = await fakeForLive('codex', steerScript(shell('sleep 3')));
    const live = await openLive(codexAdapter, opts);
    await expectSteerStates(live, model);
    await expectDeathBetweenTurnsNoticed(live);
  });
});
