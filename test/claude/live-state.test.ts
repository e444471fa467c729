// Claude live-session state end to end (real binary, fake Anthropic server): busy / queued, steer()
// before, during and after a turn, the idle and exit notices.
import { describe, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { fakeForLive, openLive } from '../support/live.js';
import { expectCloseNoticed, expectDeathBetweenTurnsNoticed, expectSteerStates, steerScript } from '../support/live-state.js';

const bash = (command: string) => ({ toolCalls: [{ name: 'Bash', input: { command, description: 'run a command' } }] });

describe('claude live session state', () => {
  it('busy, queued, steer before / during / after a turn, idle; then a SIGKILL between turns is noticed at once', async () => {
    const { model, opts } = await fakeForLive('claude', steerScript(bash('sleep 3')));
    const live = await openLive(claudeAdapter, { ...opts, permissionPolicy: { allow: ['Bash'] } });
    await expectSteerStates(live, model);
    await expectDeathBetweenTurnsNoticed(live);
  });

  it('close() is an exit notice without an error', async () => {
    const { opts } = await fakeForLive('claude', [{ text: 'unused' }]);
    await expectCloseNoticed(await openLive(claudeAdapter, opts));
  });
});
