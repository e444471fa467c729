// What the live suites of each CLI share: a fake model with a private working directory, and a live
// session that is closed when the test ends.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoder, type AdapterSpec, type LiveSession, type OneShotOpts } from '../../src/index.js';
import { fakeApiOf, startFakeModel, type FakeModel, type Script } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from './cleanup.js';

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
  const again = await coder.open({}, { sessionId: first.sessionId! });
  cleanupAfterTest(() => again.close());
  return { first, oneShot, reopened: await again.send('And now?').result };
}
