// What the live suites of each CLI share: a fake model with a private working directory, and a live
// session that is closed when the test ends.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createCoder, LiveSessionClosedError, type AdapterSpec, type LiveSession, type OneShotOpts, type RunResult, type RunStream } from '../../src/index.js';
import { fakeApiOf, startFakeModel, type FakeModel, type RecordedRequest, type Script } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from './cleanup.js';
import { isGroupAlive, markedProcessStarts, type Marker } from './processes.js';
import { waitFor } from './wait.js';

export interface LiveFake {
  model: FakeModel;
  opts: OneShotOpts;
  workDir: string;
}

/** A fake model for `cli`, the options that point it there, and a working directory, all removed after the test. */
export async function fakeForLive(cli: ProviderName, script: Script, requestTimeoutMs?: number): Promise<LiveFake> {
  const model = await startFakeModel({ api: fakeApiOf[cli], script });
  const workDir = await mkdtemp(join(tmpdir(), `coderline-${cli}-live-`));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  return { model, opts: { ...(await model.env(cli, requestTimeoutMs ? { requestTimeoutMs } : {})), workingDirectory: workDir }, workDir };
}

/** A live session of a coder of its own, both closed after the test. */
export async function openLive<P extends string>(adapter: AdapterSpec<P>, opts: OneShotOpts): Promise<LiveSession<P>> {
  const coder = createCoder(adapter);
  const live = await coder.open(opts);
  cleanupAfterTest(() => live.close(), () => coder.close());
  return live;
}

/** Script of `resumeBothWays`: one answer per step. */
export const resumeScript: Script = [{ text: 'Noted: quince.' }, { text: 'It was quince.' }, { text: 'Still quince.' }];

/**
 * A live turn, the session resumed one-shot (`coder.resume(id)`), then opened live again on it; the
 * caller checks what each request carried.
 */
export async function resumeBothWays<P extends string>(adapter: AdapterSpec<P>, opts: OneShotOpts) {
  const coder = createCoder(adapter, opts);
  cleanupAfterTest(() => coder.close());
  const live = await coder.open();
  const first = await live.send('Remember quince.').result;
  await live.close();
  const oneShot = await coder.resume(first.sessionId!).run('What was it?');
  const again = await coder.open(undefined, { sessionId: first.sessionId! });
  cleanupAfterTest(() => again.close());
  return { first, oneShot, reopened: await again.send('And now?').result };
}

/** Interrupts `turn` once its tool has started the process marked `marker`; resolves with the turn's result. */
export async function interruptWhenToolRuns<P extends string>(live: LiveSession<P>, turn: RunStream<unknown, P>, marker: Marker): Promise<RunResult<unknown, P>> {
  for await (const event of turn) {
    if (event.type !== 'tool_use') continue;
    expect(await markedProcessStarts(marker)).toBe(true);
    await live.interrupt();
  }
  return turn.result;
}

/** The parts of a chat-completions request body the live suites look at. */
export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: unknown; tool_call_id?: string }>;
}
export const chatBody = (request: RecordedRequest | undefined) => request?.body as ChatBody;
/** The first tool message (a tool call's result as the model reads it) of a request. */
export const toolMessage = (request: RecordedRequest | undefined) => chatBody(request).messages.find((message) => message.role === 'tool');
export const contentText = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

/**
 * Kills the CLI of `live` (with SIGKILL) while a turn waits on a hung model (the `model`'s first
 * request): the turn fails with a clear error, a later send() is refused, the process group is gone.
 */
export async function expectKilledFromOutside(live: LiveSession<string>, model: FakeModel): Promise<void> {
  const stuck = live.send('Hang.');
  await waitFor(() => model.requests.length === 1);
  process.kill(live.pid!, 'SIGKILL');
  expect(await stuck.result).toMatchObject({ status: 'error', signal: 'SIGKILL', error: { code: 'exit', message: expect.stringContaining('killed by SIGKILL') } });
  await expect(live.send('Anyone?').result).rejects.toBeInstanceOf(LiveSessionClosedError);
  expect(isGroupAlive(live.pid!)).toBe(false);
}

/** A script that answers `Back again.`, or fails with an HTTP status while one is set. */
export function failingModel(): { script: Script; fail(status: number | undefined): void } {
  let status: number | undefined;
  return {
    script: () => (status === undefined ? { text: 'Back again.' } : { kind: 'error', status, message: `fake ${status}` }),
    fail: (next) => void (status = next),
  };
}

/**
 * A model that fails mid-session (HTTP 500 after the CLI's retries, then 401) fails each of those
 * turns with the code a one-shot run gives, without a hang, and the next turn in the same process succeeds.
 */
export async function expectModelErrorsFailOnlyTheirTurn<P extends string>(live: LiveSession<P>, model: ReturnType<typeof failingModel>): Promise<void> {
  expect(await live.send('First.').result).toMatchObject({ status: 'success', text: 'Back again.' });
  model.fail(500);
  const server = await live.send('Say hi.').result;
  expect(server).toMatchObject({ status: 'error', error: { code: 'server' }, text: '', pid: live.pid });
  model.fail(401);
  const auth = await live.send('Say hi again.').result;
  expect(auth).toMatchObject({ status: 'error', error: { code: 'auth' }, text: '', pid: live.pid });
  model.fail(undefined);
  const back = await live.send('Are you back?', { collectEvents: true }).result;
  expect(back).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
  // Nothing of the failed turns bleeds into the next one.
  expect(back.events?.filter((event) => event.type === 'error')).toEqual([]);
}
