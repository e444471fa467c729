// A queue worker trusts nothing it reads from Redis: anyone who can write to Redis can write a job (an
// agent on another worker whose shell inherited the credentials, say). Real redis-server, worker
// processes apart from the test, the fake CLI; a marker file shows whether anything ran.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/index.js';
import { createWorker, type CheckedJob } from '../../src/queue/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { done, fakeAdapter } from '../support/fake-adapter.js';
import { testRedis } from '../support/redis.js';
import { markerPath, markingPrompt, newQueue, ran, rawJob } from '../support/queue-jobs.js';
import { startWorkerProcess } from '../support/queue-workers.js';

/** A worker that lets jobs set nothing beyond the defaults, with a workspace root jobs may work in. */
async function strictWorker(name: string, extra: Record<string, unknown> = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'coderline-queue-root-')));
  const worker = await startWorkerProcess({ name, allowOptions: [], workspaceRoot: root, ...extra });
  return { worker, root };
}

const job = (prompt: string, options: unknown, extra: Record<string, unknown> = {}) => ({ cli: 'scripted', prompt, options, events: { maxLen: 100, raw: false }, ...extra });

describe('a job cannot choose what runs on the worker, or where (issue 29, finding 1)', () => {
  it('a raw job with executablePath and extraEnv.NODE_OPTIONS is refused by name and runs nothing', async () => {
    const { queue, name } = newQueue();
    await strictWorker(name);
    const marker = markerPath('attacker');
    const exe = join(mkdtempSync(join(tmpdir(), 'coderline-evil-')), 'evil.sh');
    writeFileSync(exe, `#!/bin/sh\necho pwned > ${marker}.exe\n`);
    chmodSync(exe, 0o755);
    // The attacker writes a BullMQ job straight into Redis: their own program as the CLI, and a
    // NODE_OPTIONS that makes any Node the worker starts (the version probe included) write a file.
    const id = await rawJob(queue, job(markingPrompt(`${marker}.cli`), {
      executablePath: exe,
      extraEnv: { NODE_OPTIONS: `--import=data:text/javascript,import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(`${marker}.node`)},"pwned")` },
    }));
    const result = await queue.job(id).result;
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('invalid_options');
    expect(result.error?.message).toMatch(/executablePath[\s\S]*extraEnv/);
    expect([ran(`${marker}.exe`), ran(`${marker}.node`), ran(`${marker}.cli`)]).toEqual([false, false, false]);
  });

  const outside = '/etc';
  it.each([
    ['executablePath', { executablePath: '/bin/sh' }],
    ['extraArgs', { extraArgs: ['--model', 'x'] }],
    ['extraEnv', { extraEnv: { FAKE_CLI_MARKER: '/tmp/x' } }],
    ['unsetEnv', { unsetEnv: ['PATH'] }],
    ['inheritEnv', { inheritEnv: 'all' }],
    ['mcpServers', { mcpServers: { evil: { command: 'sh', args: ['-c', 'touch /tmp/pwned'] } } }],
    ['codexConfig', { codexConfig: { model_provider: 'evil' } }],
    // A Gemini settings key that names a command the CLI runs before each tool call, on the worker.
    ['geminiSettings', { geminiSettings: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'touch /tmp/pwned' }] }] } } }],
    ['copilotAdditionalMcpConfig', { copilotAdditionalMcpConfig: '{"mcpServers":{}}' }],
    ['codexDangerouslyBypassApprovalsAndSandbox', { codexDangerouslyBypassApprovalsAndSandbox: true }],
    ['permissionMode', { permissionMode: 'bypassPermissions' }],
    ['permissionPolicy.mode', { permissionPolicy: { mode: 'bypass' } }],
    ['codexSandbox', { codexSandbox: 'danger-full-access' }],
    ['copilotMode', { copilotMode: 'autopilot' }],
    ['isolation', { isolation: 'none' }],
    ['workingDirectory', { workingDirectory: outside }],
    ['addDirs', { addDirs: [outside] }],
    ['files', { files: ['/etc/passwd'] }],
    ['images', { images: ['/etc/logo.png'] }],
    ['codexImages', { codexImages: ['../../etc/logo.png'] }],
    ['piSessionDir', { piSessionDir: '/root/.pi' }],
  ])('a raw job setting %s resolves invalid_options naming it, and its CLI never starts', async (option, options) => {
    const { queue, name } = newQueue();
    await strictWorker(name);
    const marker = markerPath();
    // The attacker's job: an option that chooses what runs, with which environment or where.
    const id = await rawJob(queue, job(markingPrompt(marker), options));
    const result = await queue.job(id).result;
    expect(result.error?.code).toBe('invalid_options');
    expect(result.error?.message).toContain(option);
    expect(ran(marker)).toBe(false);
  });

  it('a session dir outside the worker\'s session root is refused; inside it the job runs', async () => {
    const { queue, name } = newQueue();
    const sessions = realpathSync(mkdtempSync(join(tmpdir(), 'coderline-queue-sessions-')));
    await strictWorker(name, { sessionRoot: sessions });
    const marker = markerPath();
    // The attacker points the CLI's config dir at a directory of their choosing (settings with hooks).
    const refused = await rawJob(queue, job(markingPrompt(marker), { isolation: 'strict' }, { session: { dir: '/tmp/attacker-home' } }));
    expect((await queue.job(refused).result).error?.message).toContain('session.dir');
    expect(ran(marker)).toBe(false);
    const allowed = await rawJob(queue, job(markingPrompt(marker), { isolation: 'strict' }, { session: { dir: join(sessions, 'team-a') } }));
    expect(await queue.job(allowed).result).toMatchObject({ status: 'success', text: 'ran' });
    expect(ran(marker)).toBe(true);
  });

  it('paths inside the workspace root run; a symlink out of it is refused', async () => {
    const { queue, name } = newQueue();
    const { root } = await strictWorker(name);
    mkdirSync(join(root, 'repo'));
    writeFileSync(join(root, 'repo', 'notes.txt'), 'notes');
    const marker = markerPath();
    const inside = await queue.enqueue('scripted', markingPrompt(marker), { workingDirectory: join(root, 'repo'), isolation: 'strict' });
    expect(await inside.result).toMatchObject({ status: 'success', text: 'ran' });
    expect(ran(marker)).toBe(true);
    symlinkSync('/etc', join(root, 'repo', 'escape'));
    const second = markerPath();
    // The attacker names a link inside the root that leads out of it.
    const escaped = await queue.enqueue('scripted', markingPrompt(second), { workingDirectory: join(root, 'repo', 'escape') });
    expect((await escaped.result).error?.message).toContain('workingDirectory');
    expect(ran(second)).toBe(false);
  });

  it('an option the worker allows by name goes through; MCP servers are the worker\'s, by name', async () => {
    const { queue, name } = newQueue();
    await strictWorker(name, { allowOptions: ['extraArgs'] });
    const marker = markerPath();
    // extraArgs is allowed here: the fake CLI ignores an unknown flag and runs.
    const allowed = await queue.enqueue('scripted', markingPrompt(marker), { extraArgs: ['--harmless'] });
    expect(await allowed.result).toMatchObject({ status: 'success', text: 'ran' });
    const unknownServer = await queue.enqueue('scripted', markingPrompt(markerPath()), { mcpServers: ['nope'] });
    expect((await unknownServer.result).error?.message).toContain('mcpServers: no MCP server "nope" is registered on this worker');
  });

  it('a jobOptions hook has the last word: it sees the checked job and returns what runs; throwing refuses the job', async () => {
    const { queue, name } = newQueue();
    const seen: CheckedJob[] = [];
    const worker = createWorker({
      connection: testRedis(),
      name,
      adapters: [fakeAdapter()],
      handleSignals: false,
      // The operator's mapping: a job names its tenant in the prompt; the worker picks that tenant's environment.
      jobOptions: (checked) => {
        seen.push(checked);
        if (checked.prompt === 'tenant-unknown') throw new InvalidOptionsError(['no such tenant']);
        return { ...checked.options, extraEnv: { FAKE_CLI_SCRIPT: JSON.stringify([done(`ran for ${checked.prompt}`)]) } };
      },
    });
    cleanupAfterTest(() => worker.close());
    await worker.ready();
    expect(await (await queue.enqueue('fake', 'tenant-a', { model: 'm' })).result).toMatchObject({ status: 'success', text: 'ran for tenant-a' });
    expect(seen[0]).toMatchObject({ cli: 'fake', prompt: 'tenant-a', options: { model: 'm', inheritEnv: 'minimal' } });
    const refused = await (await queue.enqueue('fake', 'tenant-unknown', {})).result;
    expect(refused.error?.code).toBe('invalid_options');
    expect(refused.error?.message).toContain('no such tenant');
    // The hook runs after the refusals: a job's own extraEnv never reaches it.
    const marker = markerPath();
    const id = await rawJob(queue, { cli: 'fake', prompt: 'tenant-a', options: { extraEnv: { FAKE_CLI_MARKER: marker } }, events: { maxLen: 100, raw: false } });
    expect((await queue.job(id).result).error?.message).toContain('extraEnv');
    expect(seen).toHaveLength(2);
    expect(ran(marker)).toBe(false);
  });

  it('a worker runs with inheritEnv minimal by default: its secrets do not reach a job\'s CLI', async () => {
    const { queue, name } = newQueue();
    const marker = markerPath();
    process.env.WORKER_ONLY_SECRET = 'do-not-leak';
    try {
      await strictWorker(name);
    } finally {
      delete process.env.WORKER_ONLY_SECRET;
    }
    const steps = [{ firstRunOnly: { flag: marker, steps: [] } }, { echoEnv: ['WORKER_ONLY_SECRET'] }, { out: { type: 'done', text: 'ok' } }];
    const handle = await queue.enqueue('scripted', JSON.stringify(steps), {});
    const events: unknown[] = [];
    for await (const event of handle.events) events.push(event.raw);
    expect((await handle.result).status).toBe('success');
    expect(JSON.stringify(events)).not.toContain('do-not-leak');
    expect(ran(marker)).toBe(true);
  });
});

describe('no job data can crash a worker or a producer (issue 29, findings 2 and 3)', () => {
  it('enqueue() checks options with the run schema: a typo or a wrong events.maxLen is refused before anything is queued', async () => {
    const { queue } = newQueue();
    await expect(queue.enqueue('fake', 'x', { modle: 'x' } as never)).rejects.toThrow(/unknown option "modle"[\s\S]*did you mean "model"/);
    await expect(queue.enqueue('fake', 'x', {}, { events: { maxLen: 1.5 } })).rejects.toThrow(InvalidOptionsError);
    await expect(queue.enqueue('fake', 'x', {}, { attempts: 0 })).rejects.toThrow(/attempts/);
    expect(await queue.bull.count()).toBe(0);
  });

  it('poison jobs each resolve with a typed error; the worker stays alive and then runs a good job', async () => {
    const { queue, name } = newQueue();
    const { worker } = await strictWorker(name);
    // The attacker writes jobs of every shape a program would not expect.
    const poison: unknown[] = [
      null,
      'a string',
      { cli: 'constructor', prompt: 'x', options: {}, events: { maxLen: 100, raw: false } },
      { cli: '__proto__', prompt: 'x', options: {}, events: { maxLen: 100, raw: false } },
      job('x', null),
      job('x', 'not an object'),
      job('x', { tools: 'a string' }),
      job('x', { canUseTool: 'toString' }),
      job('x', { tools: ['constructor'] }),
      job('x', {}, { events: { maxLen: 1.5, raw: false } }),
      job('x', {}, { events: null }),
      job('x', {}, { session: { resume: { $gt: '' } } }),
      job('x', {}, { trace: 'nonsense' }),
      { cli: 'scripted', prompt: 42, options: {}, events: { maxLen: 100, raw: false } },
      job('x'.repeat(5_000_000), {}),
      job('x', JSON.parse('{"__proto__": {"executablePath": "/bin/sh"}}')),
    ];
    const ids: string[] = [];
    for (const data of poison) ids.push(await rawJob(queue, data));
    const results = await Promise.all(ids.map((id) => queue.job(id).result));
    for (const result of results) {
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('invalid_options');
    }
    const marker = markerPath();
    const good = await queue.enqueue('scripted', markingPrompt(marker, 'still here'), {});
    expect(await good.result).toMatchObject({ status: 'success', text: 'still here' });
    expect(worker.child.exitCode).toBeNull();
    expect(worker.stderr()).not.toMatch(/Unhandled|ERR /);
  });

  it('a job hash whose data is not JSON: the worker lives, that job settles, and the next job runs', async () => {
    const { queue, name } = newQueue();
    const redis = new Redis(testRedis());
    try {
      const broken = await rawJob(queue, job('x', {}));
      // The attacker overwrites the job's data in BullMQ's own hash with text no JSON parser takes.
      await redis.hset(`bull:${name}:${broken}`, 'data', '{not json');
      const { worker } = await strictWorker(name);
      const good = await queue.enqueue('scripted', markingPrompt(markerPath(), 'after the broken one'), {});
      expect(await good.result).toMatchObject({ status: 'success', text: 'after the broken one' });
      expect((await queue.job(broken).result).error?.code).toBe('invalid_options');
      expect(worker.child.exitCode).toBeNull();
    } finally {
      redis.disconnect();
    }
  });

  it('a job whose stream key an attacker made another type: its result still reaches the producer, the follower and the worker go on', async () => {
    const { queue, name } = newQueue();
    await strictWorker(name);
    const redis = new Redis(testRedis());
    try {
      const first = await queue.enqueue('scripted', markingPrompt(markerPath(), 'first'), {});
      expect((await first.result).text).toBe('first');
      // The attacker makes the next job's stream key a string: XADD and XREAD on it fail with WRONGTYPE.
      const nextId = String(Number(first.id) + 1);
      await redis.set(`coderline:${name}:events:${nextId}`, 'not a stream');
      const poisoned = await queue.enqueue('scripted', markingPrompt(markerPath(), 'second'), {});
      expect(poisoned.id).toBe(nextId);
      const other = await queue.enqueue('scripted', markingPrompt(markerPath(), 'third'), {});
      // Its events cannot be written, but its result is recorded apart from the stream and reaches the producer.
      expect(await poisoned.result).toMatchObject({ status: 'success', text: 'second' });
      expect(await other.result).toMatchObject({ status: 'success', text: 'third' });
    } finally {
      redis.disconnect();
    }
  });
});
