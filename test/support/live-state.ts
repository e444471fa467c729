// What every CLI's live-state suite checks, on one live process: busy / queued while turns run,
// steer() before, during and after a turn (taken only during, with a user_message event where the CLI
// took it and the model reading it), the idle notice when the queue drains, and a SIGKILL between
// turns told by the exit notice without a send().
import { expect } from 'vitest';
import { LiveSessionClosedError, type CoderStreamEvent, type LiveExit, type LiveSession } from '../../src/index.js';
import type { FakeModel } from '../../src/testing/index.js';
import { isGroupAlive } from './processes.js';

/** A bound that only catches a hang: the notice itself is what the test waits for. */
const EXIT_NOTICE_BOUND_MS = 30_000;

export const STEER_TEXT = 'STEERED: mind the tests.';

/**
 * The model's script for `expectSteerStates`: `shellStep` runs a command of a few seconds (while it
 * runs the message is pushed), then the answers of the two turns.
 */
export const steerScript = (shellStep: object) => [shellStep, { text: 'Saw the steer.' }, { text: 'Second turn.' }];

/**
 * steer() before any turn is not taken and sends nothing; while a tool runs it is taken (a
 * `user_message` event in the turn, the model's next request carries it); busy and queued follow the
 * two turns sent at once; the idle notice comes once both are over, and steer() then is not taken.
 */
export async function expectSteerStates(live: LiveSession<string>, model: FakeModel): Promise<void> {
  expect(live.busy).toBe(false);
  expect(await live.steer('BEFORE: nobody listens.')).toBe(false);
  let idle = 0;
  live.on('idle', () => (idle += 1));

  const first = live.send('Run it.');
  const second = live.send('And then?');
  expect({ busy: live.busy, queued: live.queued }).toEqual({ busy: true, queued: 2 });
  const events: CoderStreamEvent<string>[] = [];
  let taken: Promise<boolean> | undefined;
  for await (const event of first) {
    events.push(event);
    if (event.type === 'tool_use' && !taken) {
      expect({ busy: live.busy, queued: live.queued }).toEqual({ busy: true, queued: 1 });
      taken = live.steer(STEER_TEXT);
    }
  }
  expect(await taken).toBe(true);
  expect(await first.result).toMatchObject({ status: 'success', text: 'Saw the steer.' });
  const pushed = events.filter((event) => event.type === 'user_message');
  expect(pushed).toMatchObject([{ type: 'user_message', text: STEER_TEXT }]);
  // Placed after the tool started, where the CLI took it.
  expect(events.findIndex((event) => event.type === 'user_message')).toBeGreaterThan(events.findIndex((event) => event.type === 'tool_use'));
  expect(JSON.stringify(model.requests[1]?.body)).toContain(STEER_TEXT);
  expect(idle).toBe(0);

  expect(await second.result).toMatchObject({ status: 'success', text: 'Second turn.' });
  await Promise.resolve();
  expect({ busy: live.busy, queued: live.queued, idle }).toEqual({ busy: false, queued: 0, idle: 1 });
  expect(await live.steer('AFTER: too late.')).toBe(false);
  const bodies = JSON.stringify(model.requests.map((request) => request.body));
  expect(bodies).not.toContain('BEFORE: nobody listens.');
  expect(bodies).not.toContain('AFTER: too late.');
  expect(model.requests).toHaveLength(3);
}

/** SIGKILL of the CLI between turns: the exit notice says so without a send(), and the session is closed. */
export async function expectDeathBetweenTurnsNoticed(live: LiveSession<string>): Promise<void> {
  const exited = new Promise<LiveExit>((resolve, reject) => {
    live.on('exit', resolve);
    setTimeout(() => reject(new Error(`no exit notice within ${EXIT_NOTICE_BOUND_MS} ms`)), EXIT_NOTICE_BOUND_MS).unref();
  });
  const pid = live.pid!;
  process.kill(pid, 'SIGKILL');
  const exit = await exited;
  expect(exit).toMatchObject({ code: undefined, signal: 'SIGKILL' });
  expect(exit.error).toBeInstanceOf(LiveSessionClosedError);
  expect(exit.error?.message).toContain('killed by SIGKILL');
  expect({ isOpen: live.isOpen, busy: live.busy }).toEqual({ isOpen: false, busy: false });
  expect(isGroupAlive(pid)).toBe(false);
  // A listener added after the end still hears of it.
  const late = await new Promise<LiveExit>((resolve) => live.on('exit', resolve));
  expect(late.signal).toBe('SIGKILL');
  await expect(live.send('Anyone?').result).rejects.toBeInstanceOf(LiveSessionClosedError);
}

/** close() is an exit too, without an error. */
export async function expectCloseNoticed(live: LiveSession<string>): Promise<void> {
  const exited = new Promise<LiveExit>((resolve) => live.on('exit', resolve));
  await live.close();
  expect((await exited).error).toBeUndefined();
}

/** Two turns sent at once, for a CLI without steer(): busy and queued follow them, one idle notice once both are over. */
export async function expectQueueStates(live: LiveSession<string>): Promise<void> {
  let idle = 0;
  live.on('idle', () => (idle += 1));
  const first = live.send('One.');
  const second = live.send('Two.');
  expect({ busy: live.busy, queued: live.queued }).toEqual({ busy: true, queued: 2 });
  expect((await first.result).status).toBe('success');
  expect(idle).toBe(0);
  expect((await second.result).status).toBe('success');
  expect({ busy: live.busy, queued: live.queued, idle }).toEqual({ busy: false, queued: 0, idle: 1 });
}
