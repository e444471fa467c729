// A queue job names its session by id, and producers take ids from their users: a worker process
// (the suite's Redis) running the real codex 0.171.0 against the fake Responses server fails a job
// whose session.resume is a flag with invalid_options, and the CLI never starts; the thread id a
// job got still resumes.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { createQueue, type QueueRunOptions } from '../../src/queue/index.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { startWorkerProcess } from '../support/queue-workers.js';
import { testRedis } from '../support/redis.js';

it('codex: a job with session.resume "--last" or "--dangerously-bypass-approvals-and-sandbox" fails as invalid_options before codex starts', async () => {
  const model = await startFakeModel({ api: 'openai-responses', script: [{ text: 'First answer.' }, { text: 'Resumed answer.' }] });
  const root = mkdtempSync(join(tmpdir(), 'coderline-queue-ids-'));
  const name = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const queue = createQueue({ connection: testRedis(), name });
  cleanupAfterTest(() => model.close(), () => rmSync(root, { recursive: true, force: true }), () => queue.close());
  // A wrapper that logs each start of the pinned codex (its version probe's too), then runs it.
  const log = join(root, 'starts.log');
  const executablePath = join(root, 'codex');
  writeFileSync(executablePath, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${resolve('node_modules/.bin/codex')}' "$@"\n`);
  chmodSync(executablePath, 0o755);
  const options = { ...(await model.env('codex')), workingDirectory: root, executablePath } as QueueRunOptions;
  // The worker lets these jobs pick the wrapper and the fake model's settings, and work under root.
  await startWorkerProcess({ name, workerName: 'a', allowOptions: ['extraEnv', 'unsetEnv', 'executablePath', 'codexConfig'], workspaceRoot: root });

  const first = await (await queue.enqueue('codex', 'Say something.', options)).result;
  expect(first.error?.message ?? first.status).toBe('success');
  const startsAfterFirst = readFileSync(log, 'utf8');

  for (const hostile of ['--last', '--dangerously-bypass-approvals-and-sandbox']) {
    // The attacker: the id a producer passes through from its user — enqueue() refuses it.
    await expect(queue.enqueue('codex', 'Again.', options, { session: { resume: hostile } })).rejects.toThrow(`session.resume: "${hostile}" is not a session id`);
    // The same id in a job written straight into Redis, past the producer: the worker refuses it.
    const raw = await queue.bull.add('raw', { cli: 'codex', prompt: 'Again.', options, events: { maxLen: 100, raw: false }, session: { resume: hostile } } as never);
    const result = await queue.job(raw.id!).result;
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_options' } });
    expect(result.error?.message).toContain(`session.resume: "${hostile}" is not a session id`);
  }
  expect(readFileSync(log, 'utf8')).toBe(startsAfterFirst);
  expect(model.requests).toHaveLength(1);

  const resumed = await (await queue.enqueue('codex', 'Again.', options, { session: { resume: first.sessionId! } })).result;
  expect(resumed).toMatchObject({ status: 'success', sessionId: first.sessionId, text: 'Resumed answer.' });
  expect(existsSync(log) && readFileSync(log, 'utf8')).toContain(`resume -- ${first.sessionId} -`);
});
