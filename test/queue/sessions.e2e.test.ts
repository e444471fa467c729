// A session across queue workers with a real CLI: the pinned `claude` against the fake Anthropic server,
// two worker processes on the suite's Redis, the session kept in a shared session dir (the config
// dir of isolation 'strict'). Worker b's job resumes what worker a's job started.
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createQueue, type QueueRunOptions, type RefusableOption } from '../../src/queue/index.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { startWorkerProcess } from '../support/queue-workers.js';
import { testRedis } from '../support/redis.js';

/** The user and assistant texts of a request's messages, in order. */
function textsOf(body: unknown): string[] {
  const messages = (body as { messages: Array<{ content: unknown }> }).messages;
  return messages.flatMap((message) =>
    typeof message.content === 'string' ? [message.content] : (message.content as Array<{ type: string; text?: string }>).filter((block) => block.type === 'text').map((block) => block.text ?? ''),
  );
}

it('claude: a job on worker b resumes the session a job on worker a started, from the shared session dir', async () => {
  const model = await startFakeModel({ api: 'anthropic', script: [{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }] });
  const root = await mkdtemp(join(tmpdir(), 'coderline-queue-claude-'));
  const name = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const queue = createQueue({ connection: testRedis(), name });
  cleanupAfterTest(() => model.close(), () => rm(root, { recursive: true, force: true }), () => queue.close());
  // The fake's options are data (no tools): they travel to the workers, which allow them.
  const options = { ...(await model.env('claude', { isolation: 'strict' })), workingDirectory: root } as QueueRunOptions;
  const dir = join(root, 'shared-sessions');
  // The fake model's environment is the worker operator's choice here: the workers allow it by name.
  const trust = { allowOptions: ['extraEnv', 'unsetEnv'] satisfies RefusableOption[], workspaceRoot: root, sessionRoot: root };

  const first = await startWorkerProcess({ name, workerName: 'a', ...trust });
  const started = await queue.enqueue('claude', 'Remember the word apricot.', options, { session: { dir } });
  const turn1 = await started.result;
  expect(turn1).toMatchObject({ status: 'success', text: 'Noted: apricot.' });
  first.child.kill('SIGTERM');
  await first.exited;

  await startWorkerProcess({ name, workerName: 'b', ...trust });
  const resumed = await queue.enqueue('claude', 'What was the word?', options, { session: { dir, resume: turn1.sessionId! } });
  expect(await resumed.result).toMatchObject({ status: 'success', sessionId: turn1.sessionId, text: 'The word was apricot.' });
  // The model's second request carries turn 1: its prompt and its answer, then the new prompt.
  const texts = textsOf(model.requests[1]?.body);
  const at = (text: string) => texts.findIndex((entry) => entry.includes(text));
  expect(at('Remember the word apricot.')).toBeGreaterThanOrEqual(0);
  expect(at('Noted: apricot.')).toBeGreaterThan(at('Remember the word apricot.'));
  expect(at('What was the word?')).toBeGreaterThan(at('Noted: apricot.'));
  const jobs = await Promise.all([started, resumed].map((handle) => queue.bull.getJob(handle.id)));
  expect(jobs.map((job) => job?.processedBy)).toEqual(['a', 'b']);
});
