import { existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CliExitError,
  CliNotFoundError,
  CliVersionError,
  FeatureNotInVersionError,
  FeatureNotSupportedError,
  InvalidOptionsError,
  run,
  StallError,
  type CoderStreamEvent,
  type OneShotOpts,
  type Usage,
} from '../../src/index.js';
import { unpassableToProcess } from '../../src/core/process/spawn.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';
import { isGroupAlive, isProcessAlive, pidsWithMarker, uniqueSeconds } from '../support/processes.js';
import { setHostEnv } from '../support/host-env.js';
import { waitFor } from '../support/wait.js';

const fake = fakeAdapter();
const msg = (text: string, delta = false) => ({ out: { type: 'message', text, delta } });

function argsOf(events: CoderStreamEvent<string>[] | undefined): string[] {
  const record = events?.find((e) => e.type === 'progress' && e.subtype === 'args')?.raw as { args: string[] } | undefined;
  return record?.args ?? [];
}

function grandchildOf(events: CoderStreamEvent<string>[] | undefined): number {
  const record = events?.find((e) => e.type === 'progress' && e.subtype === 'grandchild')?.raw as { pid: number };
  return record.pid;
}

describe('run() with a well-behaved CLI', () => {
  it('streams events, returns the final answer and passes every raw line to onRawLine', async () => {
    const raw: string[] = [];
    const seen: string[] = [];
    const result = await run(fake, 'hi', {
      ...script([{ out: { type: 'init', sessionId: 's-1' } }, msg('thinking aloud'), 'not json at all', msg('the answer'), { out: { type: 'usage', usage: { inputTokens: 3, cachedInputTokens: 1, outputTokens: 2, reasoningTokens: 0 } } }, { out: { type: 'done' } }].map((s) => (typeof s === 'string' ? { out: s } : s))),
      onRawLine: (line) => raw.push(line),
      onEvent: (event) => seen.push(event.type),
    });
    expect(result.status).toBe('success');
    expect(result.text).toBe('the answer');
    expect(result.sessionId).toBe('s-1');
    expect(result.usage).toEqual({ inputTokens: 3, cachedInputTokens: 1, outputTokens: 2, reasoningTokens: 0 });
    expect(result.exitCode).toBe(0);
    expect(raw).toEqual([
      '{"type":"init","sessionId":"s-1"}',
      '{"type":"message","text":"thinking aloud","delta":false}',
      'not json at all',
      '{"type":"message","text":"the answer","delta":false}',
      '{"type":"usage","usage":{"inputTokens":3,"cachedInputTokens":1,"outputTokens":2,"reasoningTokens":0}}',
      '{"type":"done"}',
    ]);
    expect(seen).toEqual(['init', 'message', 'progress', 'message', 'usage', 'done']);
  });

  it('sends the prompt on stdin byte for byte, never in argv', async () => {
    const prompt = '--help -p "quoted" $(whoami) ünïcödé 🌍\nsecond line';
    const result = await run(fake, prompt, { ...script([{ echoStdin: 1 }, { echoArgs: 1 }, done()]), collectEvents: true });
    const stdin = result.events?.find((e) => e.type === 'progress' && e.subtype === 'stdin')?.raw as { text: string };
    expect(stdin.text).toBe(prompt);
    expect(argsOf(result.events).join(' ')).not.toContain('--help');
  });

  it('keeps going after a line that is too long and a multi-byte character split across writes', async () => {
    const smile = Buffer.from('{"type":"message","text":"ça 🌍"}\n');
    const cut = smile.indexOf(0xf0) + 2;
    const result = await run(fake, 'x', {
      ...script([{ bigLine: 2 * 1024 * 1024 }, { rawHex: smile.subarray(0, cut).toString('hex') }, { sleep: 50 }, { rawHex: smile.subarray(cut).toString('hex') }, { out: { type: 'done' } }]),
      maxLineBytes: 1024 * 1024,
      collectEvents: true,
    });
    expect(result.status).toBe('success');
    expect(result.text).toBe('ça 🌍');
    const oversized = result.events?.find((e) => e.type === 'error');
    expect(oversized).toMatchObject({ type: 'error', code: 'protocol', fatal: false });
    expect((oversized as { message: string }).message).toMatch(/bytes/);
  });

  it('passes a record type it does not know through as progress with its raw record', async () => {
    const result = await run(fake, 'x', { ...script([{ out: { type: 'brand_new', x: 1 } }, done()]), collectEvents: true });
    expect(result.events?.[0]).toMatchObject({ type: 'progress', kind: 'unknown', raw: { type: 'brand_new', x: 1 }, provider: 'fake' });
  });

  it('turns a translator exception into an error event instead of a crash', async () => {
    const result = await run(fake, 'x', { ...script([{ out: { type: 'throw' } }, done()]), collectEvents: true });
    expect(result.status).toBe('success');
    expect(result.events?.[0]).toMatchObject({ type: 'error', code: 'protocol', fatal: false });
  });

  const envSeen = (result: { events?: CoderStreamEvent<string>[] | undefined }) =>
    (result.events?.find((e) => e.type === 'progress' && e.subtype === 'env')?.raw as { env: Record<string, string | null> }).env;

  it("builds the environment: deny-lists out (the core's and the CLI's), adapter env in, extraEnv (empty kept), unsetEnv last", async () => {
    setHostEnv({ FAKE_CLI_NESTED: '1', NODE_OPTIONS: '--inspect', COD_TEST_UNSET: 'present' });
    const result = await run(fake, 'x', {
      ...script([{ echoEnv: ['FAKE_CLI_NESTED', 'NODE_OPTIONS', 'FAKE_ADAPTER_ENV', 'EMPTY', 'COD_TEST_UNSET', 'PATH'] }, done()], { EMPTY: '' }),
      unsetEnv: ['COD_TEST_UNSET'],
      collectEvents: true,
    });
    const env = envSeen(result);
    expect(env).toMatchObject({ FAKE_CLI_NESTED: null, NODE_OPTIONS: null, FAKE_ADAPTER_ENV: 'from-adapter', EMPTY: '', COD_TEST_UNSET: null });
    expect(env.PATH).toBeTruthy();
  });

  it("inheritEnv: 'minimal' keeps the core's set and the CLI's own names; a list keeps just those; extraEnv always goes through", async () => {
    const host = { COD_TEST_SECRET: 'hunter2', LC_COD_TEST: 'locale', cod_test_proxy: 'x', http_proxy: 'http://127.0.0.1:9', FAKE_CLI_API_KEY: 'key', FAKE_CLI_HOME: '/state' };
    const names = [...Object.keys(host), 'PATH', 'FROM_EXTRA'];
    setHostEnv(host);
    const minimal = envSeen(await run(fake, 'x', { ...script([{ echoEnv: names }, done()], { FROM_EXTRA: 'extra' }), inheritEnv: 'minimal', collectEvents: true }));
    expect(minimal).toMatchObject({ COD_TEST_SECRET: null, cod_test_proxy: null, LC_COD_TEST: 'locale', http_proxy: 'http://127.0.0.1:9', FAKE_CLI_API_KEY: 'key', FAKE_CLI_HOME: '/state', FROM_EXTRA: 'extra' });
    expect(minimal.PATH).toBe(process.env.PATH);
    const listed = envSeen(await run(fake, 'x', { ...script([{ echoEnv: names }, done()], { FROM_EXTRA: 'extra' }), inheritEnv: ['COD_TEST_SECRET', 'PATH'], collectEvents: true }));
    expect(listed).toEqual({ COD_TEST_SECRET: 'hunter2', LC_COD_TEST: null, cod_test_proxy: null, http_proxy: null, FAKE_CLI_API_KEY: null, FAKE_CLI_HOME: null, PATH: process.env.PATH, FROM_EXTRA: 'extra' });
  });
});

describe('run() when things go wrong', () => {
  it('a non-zero exit is an error with the stderr tail, even after a successful final record', async () => {
    const result = await run(fake, 'x', script([{ err: 'first problem' }, { err: 'last words' }, done('looks fine'), { exit: 3 }]));
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(CliExitError);
    const error = result.error as CliExitError;
    expect(error.exitCode).toBe(3);
    expect(error.code).toBe('exit');
    expect(error.stderrTail).toContain('last words');
    expect(error.message).toContain('last words');
  });

  it('a typed fatal error gives its code to the exit error', async () => {
    const result = await run(fake, 'x', script([{ out: { type: 'error', code: 'auth', message: 'bad key', fatal: true } }, { exit: 1 }]));
    expect(result.error).toBeInstanceOf(CliExitError);
    expect(result.error?.code).toBe('auth');
  });

  it('a CLI that exits 0 after a fatal error record has failed', async () => {
    const result = await run(fake, 'x', script([{ out: { type: 'error', code: 'rate_limit', message: '429', fatal: true } }, done()]));
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('rate_limit');
  });

  it('death by a signal the SDK did not send is an error', async () => {
    const result = await run(fake, 'x', script([done(), { kill: 'SIGKILL' }]));
    expect(result.status).toBe('error');
    expect(result.signal).toBe('SIGKILL');
  });

  it('exit 0 without a final record is a protocol error', async () => {
    const result = await run(fake, 'x', script([msg('partial'), { exit: 0 }]));
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('protocol');
    expect(result.text).toBe('partial');
  });

  it('a missing binary rejects with CliNotFoundError', async () => {
    await expect(run(fake, 'x', { executablePath: '/nonexistent/agent-cli' })).rejects.toBeInstanceOf(CliNotFoundError);
  });

  it('a CLI that exits without reading a large prompt fails the run by its exit code, and the host lives on', async () => {
    const result = await run(fake, 'x'.repeat(4 * 2 ** 20), script([{ err: 'bad flag' }, { exit: 3 }]));
    expect(result.status).toBe('error');
    expect(result.exitCode).toBe(3);
    expect(result.error?.message).toContain('bad flag');
  });

  it('a failed exit carries the last 40 stderr lines, in order, long ones cut', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => (i === 99 ? 'y'.repeat(3000) : `line ${i}`));
    const result = await run(fake, 'x', script([...lines.map((err) => ({ err })), { exit: 2 }]));
    const tail = (result.error as CliExitError).stderrTail.split('\n');
    expect(tail).toEqual([...lines.slice(60, 99), `${'y'.repeat(2000)}…`]);
  });

  it('a stderr line over 64 KiB is a warning event, not a silent drop, and the lines after it still come', async () => {
    const result = await run(fake, 'x', { ...script([{ err: 'y'.repeat(70_000) }, { err: 'after it' }, done()]), collectEvents: true });
    expect(result.events?.filter((event) => event.type === 'progress' || event.type === 'stderr').map((event) => event.type === 'stderr' ? event.line : event.message)).toEqual([
      'skipped a stderr line of 70000 bytes: longer than 65536',
      'after it',
    ]);
  });

  it('usage an adapter reads at exit comes after done as this run\'s share; a file it cannot read is a warning, not a failure', async () => {
    const withFile = (afterExit: () => Promise<{ sessionTotal: Usage; raw: unknown } | undefined>) => {
      const base = fakeAdapter();
      return fakeAdapter({ buildInvocation: async (ctx) => ({ ...(await base.buildInvocation(ctx)), afterExit }) });
    };
    const total = { inputTokens: 30, cachedInputTokens: 0, outputTokens: 3, reasoningTokens: 0 };
    const counted = await run(withFile(async () => ({ sessionTotal: total, raw: { from: 'file' } })), 'x', { ...script([done()]), collectEvents: true });
    expect(counted.usage).toEqual(total);
    expect(counted.events?.map((event) => event.type)).toEqual(['done', 'usage']);

    const unreadable = await run(withFile(() => Promise.reject(new Error('EACCES'))), 'x', { ...script([done()]), collectEvents: true });
    expect(unreadable.status).toBe('success');
    expect(unreadable.events?.at(-1)).toMatchObject({ type: 'progress', kind: 'warning', message: expect.stringContaining('EACCES') });
  });

  it('a binary removed after its version was checked rejects with CliNotFoundError, not a failed run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const cli = join(dir, 'going-away-cli');
    symlinkSync(fake.binary, cli);
    expect((await run(fake, 'x', { ...script([done()]), executablePath: cli })).status).toBe('success');
    unlinkSync(cli);
    await expect(run(fake, 'x', { ...script([done()]), executablePath: cli })).rejects.toBeInstanceOf(CliNotFoundError);
  });

  it('a --version killed by a signal is reported as a failed probe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const cli = join(dir, 'dead-cli');
    writeFileSync(cli, '#!/bin/sh\nkill -KILL $$\n', { mode: 0o755 });
    await expect(run(fake, 'x', { ...script([done()]), executablePath: cli })).rejects.toThrow(/--version" failed: stopped by SIGKILL/);
  });

  it('a --version that leaves a process holding its output does not hang the run, and the leftover is stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const cli = join(dir, 'leaves-a-child');
    // `sleep` inherits stdout: the pipe stays open after the version line and the shell's exit.
    const seconds = uniqueSeconds(41);
    writeFileSync(cli, `#!/bin/sh\nif [ "$1" = --version ]; then echo "fake-cli 1.2.0"; sleep ${seconds} & exit 0; fi\nexec "${fake.binary}" "$@"\n`, { mode: 0o755 });
    const started = Date.now();
    const result = await run(fake, 'x', { ...script([done()]), executablePath: cli });
    expect(result).toMatchObject({ status: 'success', cliVersion: '1.2.0' });
    expect(Date.now() - started).toBeLessThan(30_000); // the leftover holds the pipe for 41 s
    await waitFor(() => pidsWithMarker(seconds).length === 0);
  });

  it('checks the version: older fails, newer warns', async () => {
    // A second path to the same script: versions are probed once per executable.
    const old = join(mkdtempSync(join(tmpdir(), 'coderline-test-')), 'old-cli');
    symlinkSync(fake.binary, old);
    await expect(run(fake, 'x', { ...script([done()], { FAKE_CLI_VERSION: '0.9.0' }), executablePath: old })).rejects.toBeInstanceOf(CliVersionError);
    const newer = fakeAdapter({ versions: { min: '1.0.0', testedMax: '1.1.0' } });
    const result = await run(newer, 'x', { ...script([done()]), collectEvents: true });
    expect(result.status).toBe('success');
    expect(result.events?.[0]).toMatchObject({ type: 'progress', kind: 'warning', subtype: 'version' });
  });

  it('warns about a newer version once per executable per process, and runs an untested one in range quietly', async () => {
    const newer = fakeAdapter({ versions: { min: '1.0.0', testedMax: '1.1.0' } });
    const versionWarnings = (result: { events?: readonly { type: string; subtype?: string }[] }) => (result.events ?? []).filter((event) => event.type === 'progress' && event.subtype === 'version');
    const path = join(mkdtempSync(join(tmpdir(), 'coderline-test-')), 'newer-cli');
    symlinkSync(fake.binary, path);
    const first = await run(newer, 'x', { ...script([done()]), executablePath: path, collectEvents: true });
    const second = await run(newer, 'x', { ...script([done()]), executablePath: path, collectEvents: true });
    expect(versionWarnings(first)).toHaveLength(1);
    expect(versionWarnings(second)).toEqual([]);
    const untested = fakeAdapter({ versions: { min: '1.0.0', testedMax: '1.4.0', tested: ['1.0.0', '1.4.0'] } });
    const inRange = await run(untested, 'x', { ...script([done()]), collectEvents: true });
    expect(inRange).toMatchObject({ status: 'success', cliVersion: '1.2.0' });
    expect(versionWarnings(inRange)).toEqual([]);
  });
});

describe('options are checked before anything spawns', () => {
  const marker = () => join(mkdtempSync(join(tmpdir(), 'coderline-test-')), 'spawned');

  it('rejects an unknown key by name, with a suggestion', async () => {
    const file = marker();
    const attempt = run(fake, 'x', { ...script([done()], { FAKE_CLI_MARKER: file }), modle: 'm' } as never);
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toThrow(/unknown option "modle".*did you mean "model"/);
    expect(existsSync(file)).toBe(false);
  });

  it('rejects an option the CLI does not support with FeatureNotSupportedError', async () => {
    const file = marker();
    const attempt = run(fake, 'x', { ...script([done()], { FAKE_CLI_MARKER: file }), maxTurns: 3 });
    await expect(attempt).rejects.toBeInstanceOf(FeatureNotSupportedError);
    await expect(attempt).rejects.toMatchObject({ option: 'maxTurns', provider: 'fake', instead: 'The fake CLI has no turn limit.' });
    expect(existsSync(file)).toBe(false);
  });

  it('rejects an option the installed version lacks, naming the option and both versions', async () => {
    const file = marker();
    const gated = fakeAdapter({ capabilities: { model: { level: 'native', how: '--model', since: '1.3.0' } } });
    const attempt = run(gated, 'x', { ...script([done()], { FAKE_CLI_MARKER: file }), model: 'm' });
    await expect(attempt).rejects.toBeInstanceOf(FeatureNotInVersionError);
    await expect(attempt).rejects.toMatchObject({ code: 'feature_not_supported', option: 'model', version: '1.2.0', since: '1.3.0' });
    await expect(attempt).rejects.toThrow('fake 1.2.0 lacks it: it needs fake 1.3.0 or newer');
    expect(existsSync(file)).toBe(false);
    // Versions are probed once per executable: 1.3.0 answers from a second path.
    const upgraded = join(mkdtempSync(join(tmpdir(), 'coderline-test-')), 'upgraded-cli');
    symlinkSync(fake.binary, upgraded);
    await expect(run(gated, 'x', { ...script([done()], { FAKE_CLI_VERSION: '1.3.0' }), model: 'm', executablePath: upgraded })).resolves.toMatchObject({ status: 'success' });
  });

  it('rejects a NUL byte bound for argv or the environment, naming where but not the secret value', async () => {
    const file = marker();
    const viaArgv = run(fake, 'x', { ...script([done()], { FAKE_CLI_MARKER: file }), model: 'gpt\u0000x' });
    await expect(viaArgv).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(viaArgv).rejects.toThrow(/argument 2 .*NUL byte/);
    const viaEnv = run(fake, 'x', { ...script([done()], { FAKE_CLI_MARKER: file, API_KEY: 'sk-secret\u0000' }) });
    await expect(viaEnv).rejects.toThrow(/environment variable API_KEY contains a NUL byte/);
    await expect(viaEnv).rejects.not.toThrow(/sk-secret/);
    expect(existsSync(file)).toBe(false);
  });

  it('names an argv argument with a NUL byte by its flag, never by its value', () => {
    // The careless user: a token with a stray NUL in extraArgs, joined to its flag or after it. The
    // message used to quote the argument's first 40 characters: the flag and the token.
    const issues = unpassableToProcess(['-p', '--api-key=sk-secret-joined\0', '--token', 'sk-secret-after\0', 'sk-secret-bare\0'], {});
    expect(issues).toEqual([
      'command-line argument 2 (--api-key) contains a NUL byte',
      'command-line argument 4 (the value after --token) contains a NUL byte',
      'command-line argument 5 contains a NUL byte',
    ]);
  });

  it('a working directory that does not exist is an InvalidOptionsError, not a missing CLI', async () => {
    const inDirs = fakeAdapter({ capabilities: { ...fake.capabilities, workingDirectory: { level: 'native', how: 'cwd' } } });
    const attempt = run(inDirs, 'x', { ...script([done()]), workingDirectory: '/nonexistent/coderline-dir' });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toThrow(/working directory \/nonexistent\/coderline-dir does not exist/);
  });

  it('rejects a value of the wrong type', async () => {
    await expect(run(fake, 'x', { stallTimeoutMs: -1 })).rejects.toThrow(/stallTimeoutMs/);
  });
});

describe('stopping the process group', () => {
  it('abort stops the CLI and its grandchild: cancelled, nothing left', async () => {
    const controller = new AbortController();
    let grandchild = 0;
    const pending = run(fake, 'x', {
      ...script([{ ignoreSignals: 1 }, { grandchild: {} }, { hang: 1 }]),
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'progress' && event.subtype === 'grandchild') {
          grandchild = (event.raw as { pid: number }).pid;
          controller.abort();
        }
      },
    });
    const result = await pending;
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('aborted');
    expect(grandchild).toBeGreaterThan(0);
    expect(isProcessAlive(grandchild)).toBe(false);
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  // Abort once the grandchild is there; the stall timeout leaves a loaded machine time to start it.
  const abortAtGrandchild = (): Pick<OneShotOpts, 'signal' | 'onEvent'> => {
    const controller = new AbortController();
    return { signal: controller.signal, onEvent: (event) => event.type === 'progress' && event.subtype === 'grandchild' && controller.abort() };
  };
  it.each([
    ['abort', abortAtGrandchild, 'cancelled'],
    ['stall', () => ({ stallTimeoutMs: 5_000 }), 'stalled'],
  ] as const)('%s also stops a grandchild that left the process group for a session of its own', async (_name, extra, status) => {
    const result = await run(fake, 'x', { ...script([{ grandchild: { ownSession: true } }, { hang: 1 }]), ...extra(), collectEvents: true });
    expect(result.status).toBe(status);
    expect(isProcessAlive(grandchildOf(result.events))).toBe(false);
  });

  it('an already aborted signal spawns nothing', async () => {
    const result = await run(fake, 'x', { ...script([done()]), signal: AbortSignal.abort() });
    expect(result.status).toBe('cancelled');
    expect(result.pid).toBeUndefined();
  });

  it('stall: no output for stallTimeoutMs kills the group', async () => {
    const started = Date.now();
    const result = await run(fake, 'x', { ...script([msg('started'), { grandchild: {} }, { hang: 1 }]), stallTimeoutMs: 5_000, collectEvents: true });
    expect(result.status).toBe('stalled');
    expect(result.error).toBeInstanceOf(StallError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(isProcessAlive(grandchildOf(result.events))).toBe(false);
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('a CLI that lingers after its final record is killed after the grace period and the run succeeds', async () => {
    const result = await run(fake, 'x', { ...script([msg('answer'), done(), { ignoreSignals: 1 }, { hang: 1 }]), terminalGraceMs: 200 });
    expect(result.status).toBe('success');
    expect(result.text).toBe('final');
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('a process in a session of its own that keeps stdout open after the CLI exited does not hang the run', async () => {
    const result = await run(fake, 'x', { ...script([{ grandchild: { holdStdout: true, ownSession: true } }, done(), { exit: 0 }]), collectEvents: true });
    const escaped = grandchildOf(result.events);
    try {
      expect(result.status).toBe('success');
      expect(result.events?.some((e) => e.type === 'progress' && e.subtype === 'pipes_held')).toBe(true);
    } finally {
      process.kill(escaped, 'SIGKILL');
    }
  });

  it('a process in a session of its own that still writes after the CLI exited is read to its end, not given up on', async () => {
    // 3 s of output after the exit: past the first look at the pipes, within the looks while written to.
    const result = await run(fake, 'x', { ...script([{ writingGrandchild: { lines: 15, everyMs: 200 } }, done(), { exit: 0 }]), collectEvents: true });
    expect(result.status).toBe('success');
    expect(result.events?.filter((e) => e.type === 'message').map((e) => e.type === 'message' && e.text)).toEqual(Array.from({ length: 15 }, (_, i) => `late ${i}`));
    expect(result.events?.some((e) => e.type === 'progress' && e.subtype === 'pipes_held')).toBe(false);
  });

  it('a grandchild that keeps stdout open after the CLI exited does not hang the run', async () => {
    const result = await run(fake, 'x', { ...script([{ grandchild: { holdStdout: true } }, done(), { exit: 0 }]), collectEvents: true });
    expect(result.status).toBe('success');
    expect(isProcessAlive(grandchildOf(result.events))).toBe(false);
  });
});

describe('temp files', () => {
  const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
  const schemaFile = (events: CoderStreamEvent<string>[] | undefined) => {
    const args = argsOf(events);
    return args[args.indexOf('--schema') + 1]!;
  };

  it.each([
    ['success', [{ echoArgs: 1 }, { out: { type: 'done', text: '{"ok":true}' } }], {}, 'success'],
    ['failure', [{ echoArgs: 1 }, { exit: 2 }], {}, 'error'],
    ['stall', [{ echoArgs: 1 }, { hang: 1 }], { stallTimeoutMs: 1500 }, 'stalled'],
  ])('are private while the run lives and gone after %s', async (_name, steps, extra, status) => {
    let seenMode = 0;
    const result = await run(fake, 'x', {
      ...script(steps),
      ...extra,
      outputSchema: schema,
      collectEvents: true,
      onEvent: (event) => {
        if (event.type === 'progress' && event.subtype === 'args') {
          const args = (event.raw as { args: string[] }).args;
          const file = args[args.indexOf('--schema') + 1]!;
          expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(schema);
          seenMode = statMode(file);
        }
      },
    });
    expect(result.status).toBe(status);
    expect(seenMode).toBe(0o600);
    expect(existsSync(schemaFile(result.events))).toBe(false);
  });

  it('are gone after abort', async () => {
    const controller = new AbortController();
    const result = await run(fake, 'x', {
      ...script([{ echoArgs: 1 }, { hang: 1 }]),
      outputSchema: schema,
      signal: controller.signal,
      collectEvents: true,
      onEvent: (event) => event.type === 'progress' && event.subtype === 'args' && controller.abort(),
    });
    expect(result.status).toBe('cancelled');
    expect(existsSync(schemaFile(result.events))).toBe(false);
  });
});

function statMode(file: string): number {
  return statSync(file).mode & 0o777;
}
