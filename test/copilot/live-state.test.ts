// Copilot live-session state end to end (real `copilot --acp`, fake chat-completions server): busy /
// queued, the idle and exit notices (the generic live host's; Copilot has no steer).
import { describe, it } from 'vitest';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { fakeForLive, openLive } from '../support/live.js';
import { expectDeathBetweenTurnsNoticed, expectQueueStates } from '../support/live-state.js';

describe('copilot live session state', () => {
  it('busy, queued, idle once the queue drains; then a SIGKILL between turns is noticed at once', async () => {
    const { opts } = await fakeForLive('copilot', [{ text: 'First.' }, { text: 'Second.' }]);
    const live = await openLive(copilotAdapter, opts);
    await expectQueueStates(live);
    await expectDeathBetweenTurnsNoticed(live);
  });
});
