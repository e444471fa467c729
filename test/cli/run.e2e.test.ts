// `coderline run` / `record` / `replay` as a subprocess, driving the real claude binary against
// the fake Anthropic server: what lands on stdout and stderr, the exit codes, and Ctrl-C.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent } from '../../src/index.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type Script } from '../../src/testing/index.js';
import { isGroupAlive, killMarked, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { coderline, repoRoot, sandboxInvocation, startCoderline } from './command.js';
import { waitFor } from '../support/wait.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fixtureProgram } from '../mcp/support.js';


const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');

/**
 * A fake model with `script`, a fresh working directory, and the environment and flags that point
 * the command at them (the executable given as a flag too: a recording must not keep it).
 */
async function fake(script: Script, options: FakeEnvOptions = {}): Promise<{ model: FakeModel; workDir: string; env: NodeJS.ProcessEnv; flags: string[] }> {
  const model = await startFakeModel({ api: 'anthropic', script });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-cli-e2e-'));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  const opts = { ...(await model.env('claude', options)), executablePath: claudeBin, workingDirectory: workDir };
  return { model, workDir, ...sandboxInvocation(opts) };
}

const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'run a command' } });
const jsonLines = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('coderline run (real claude, fake model server)', () => {
  it('prints the answer on stdout and the steps on stderr as plain lines; exit 0', async () => {
    const { env, flags, workDir } = await fake([
      { text: 'Looking.', toolCalls: [bash('echo cli-proof > proof.txt')] },
      { text: 'The file is written.' },
    ]);
    const result = await coderline(['run', '--cli', 'claude', ...flags, '--allow', 'Bash', 'Write proof.txt'], { env });

    expect(result.stderr).not.toMatch(/coderline:/);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('The file is written.\n');
    // stderr is a pipe here (as in CI): plain lines with the elapsed time, no terminal escapes.
    expect(result.stderr).not.toContain('\x1b[');
    expect(result.stderr).toMatch(/^\[ *\d+\.\ds\] started claude · model claude-sonnet-4-5 · session [0-9a-f-]{36}$/m);
    expect(result.stderr).toMatch(/^\[ *\d+\.\ds\] tool Bash: echo cli-proof > proof.txt$/m);
    expect(result.stderr).toMatch(/^done in \d+\.\ds · \d+ in \/ \d+ out tokens · \$\d+\.\d{4} · session [0-9a-f-]{36}$/m);
    expect(await readFile(join(workDir, 'proof.txt'), 'utf8')).toBe('cli-proof\n');
  });

  it('reads the prompt from stdin with `-`; --json prints one result object', async () => {
    const { env, flags, model } = await fake([{ text: 'Got it.' }]);
    const result = await coderline(['run', '--cli', 'claude', ...flags, '--json', '--quiet', '-'], { env, input: 'The prompt from stdin' });

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ provider: 'claude', status: 'success', text: 'Got it.', error: null, output: null, cliVersion: '2.1.332' });
    expect(JSON.stringify(model.requests[0]?.body)).toContain('The prompt from stdin');
  });

  it('--jsonl streams the events; --plan reaches the CLI', async () => {
    const { env, flags, model } = await fake([{ text: 'Planned.' }]);
    const result = await coderline(['run', '--cli', 'claude', ...flags, '--jsonl', '--plan', 'Plan it'], { env });

    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout) as unknown as CoderStreamEvent[];
    expect(events[0]).toMatchObject({ type: 'init', provider: 'claude' });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'success', text: 'Planned.' });
    expect((events[0] as { raw: { permissionMode?: string } }).raw.permissionMode).toBe('plan');
    expect(model.requests).toHaveLength(1);
  });

  it('--schema: a matching answer is printed as JSON (exit 0); a wrong one exits 3', async () => {
    const schemaFile = join((await fake([{ text: 'unused' }])).workDir, 'schema.json');
    await writeFile(schemaFile, JSON.stringify({ type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'], additionalProperties: false }));

    const good = await fake([{ toolCalls: [{ name: 'StructuredOutput', input: { verdict: 'fine' } }] }, { text: 'Done.' }]);
    const ok = await coderline(['run', '--cli', 'claude', ...good.flags, '--schema', schemaFile, '--quiet', 'Judge'], { env: good.env });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ verdict: 'fine' });

    const bad = await fake([{ text: 'no JSON here' }]);
    const wrong = await coderline(['run', '--cli', 'claude', ...bad.flags, '--schema', schemaFile, 'Judge'], { env: bad.env });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/^error \(invalid_output\) after/m);
  });

  it('shows a retry of the model call on stderr, then succeeds', async () => {
    const { env, flags } = await fake([{ kind: 'error', status: 500, message: 'overloaded' }, { text: 'Second time lucky.' }], { retries: 1 });
    const result = await coderline(['run', '--cli', 'claude', ...flags, 'Hi'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Second time lucky.\n');
    expect(result.stderr).toMatch(/^\[ *\d+\.\ds\] retry: .+$/m);
  });

  it('an API error exits 1 and says why on stderr', async () => {
    const { env, flags } = await fake([{ kind: 'error', status: 401, message: 'invalid x-api-key' }], { retries: 0 });
    const result = await coderline(['run', '--cli', 'claude', ...flags, 'Hi'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error \(auth\) after \d+\.\ds/m);
    expect(result.stdout).toBe('');
  });

  it('a hung model server: exit 4 after --stall-timeout-ms, and after --timeout', async () => {
    const { env, flags } = await fake([{ kind: 'hang', after: 'first-event' }]);
    const stalled = await coderline(['run', '--cli', 'claude', ...flags, '--stall-timeout-ms', '2000', 'Hi'], { env });
    expect(stalled.code).toBe(4);
    expect(stalled.stderr).toMatch(/^stalled \(stalled\) after/m);

    const timedOut = await coderline(['run', '--cli', 'claude', ...flags, '--timeout', '2', 'Hi'], { env });
    expect(timedOut.code).toBe(4);
    expect(timedOut.stderr).toMatch(/timed out after 2s/);
  });

  // SIGINT is Ctrl-C; SIGTERM is what a cancelled CI job sends.
  it.each(['SIGINT', 'SIGTERM'] as const)('%s while a tool runs: exit 130, the CLI and its tool are gone', async (signal) => {
    const marker = uniqueMarker(`cli-${signal}`);
    cleanupAfterTest(() => killMarked(marker));
    const { env, flags } = await fake([{ toolCalls: [bash(`exec -a ${marker} tail -f /dev/null`)] }, { text: 'never' }]);
    const command = startCoderline(['run', '--cli', 'claude', ...flags, '--allow', 'Bash', '--json', 'Wait'], { env });
    await waitFor(() => command.stderrSoFar().includes('tool Bash') && pidsWithMarker(marker).length > 0, 120_000);
    command.child.kill(signal);
    const result = await command.done;

    expect(result.code).toBe(130);
    const parsed = JSON.parse(result.stdout) as { status: string; pid: number; error: { code: string } };
    expect(parsed).toMatchObject({ status: 'cancelled', error: { code: 'aborted' } });
    expect(isGroupAlive(parsed.pid)).toBe(false);
    expect(pidsWithMarker(marker)).toEqual([]);
  });
});

describe('coderline record → replay', () => {
  it('records a header and the raw lines; replay prints the same events twice, ts 0', async () => {
    const { env, flags, workDir } = await fake([{ text: 'Checking.', toolCalls: [bash('echo hi')] }, { text: 'Recorded answer.' }]);
    const file = join(workDir, 'run.jsonl');
    const recorded = await coderline(['record', '--cli', 'claude', ...flags, '--allow', 'Bash', '-o', file, '--jsonl', 'Record me'], { env });
    expect(recorded.code).toBe(0);

    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(header).toMatchObject({ coderline: 'recording', format: 1, cli: 'claude', cliVersion: '2.1.332', status: 'success', exitCode: 0, session: { kind: 'new' } });
    // Only what the translator needs: no environment values, no executable path.
    expect(header.opts).toEqual({ model: 'claude-sonnet-4-5', permissionPolicy: { allow: ['Bash'] } });
    expect(JSON.stringify(header)).not.toContain('sk-ant-fake-test-key');
    expect((JSON.parse(lines[1]!) as { type: string }).type).toBe('system');

    const first = await coderline(['replay', file]);
    const second = await coderline(['replay', file]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const replayed = jsonLines(first.stdout);
    expect(replayed.every((event) => event.ts === 0 && event.provider === 'claude')).toBe(true);
    // The live run's events (minus their clock) are what the replay gives.
    const live = jsonLines(recorded.stdout).map((event) => ({ ...event, ts: 0 }));
    expect(replayed).toEqual(live);
    expect(replayed.at(-1)).toMatchObject({ type: 'done', text: 'Recorded answer.' });

    const pretty = await coderline(['replay', file, '--pretty']);
    expect(pretty.stdout).toContain('tool Bash: echo hi\n');
    expect(pretty.stdout).toContain('done: success — Recorded answer.\n');
  });
});

describe('coderline record keeps the run\'s secrets out of the file', () => {
  const token = `sk-live-${'c0ffee'.repeat(4)}`;
  const header = `Bearer hdr-${'5eed'.repeat(5)}`;

  it('a token a tool prints from --extra-env, and an MCP server\'s env value: the file has <redacted>, mode 0600', async () => {
    // The attacker: a prompt makes the agent print the deploy token the job put in the CLI's
    // environment; the recording is then shared (attached to an issue, committed as a fixture).
    const { env, flags, workDir } = await fake([{ text: 'Looking.', toolCalls: [bash('echo "token=$DEPLOY_TOKEN"')] }, { text: 'Printed it.' }]);
    const file = join(workDir, 'run.jsonl');
    // The host starts the server (the bridge fronts it), so it must be one that runs.
    const server = { command: process.execPath, args: [fixtureProgram], env: { FIXTURE_MARKER_FILE: join(workDir, 'markers'), FIXTURE_SECRET: header } };
    const servers = `fixture=${JSON.stringify(server)}`;
    const recorded = await coderline(['record', '--cli', 'claude', ...flags, '--extra-env', `DEPLOY_TOKEN=${token}`, '--mcp-servers', servers, '--allow', 'Bash', '-o', file, '--jsonl', 'Print the token'], { env });
    expect(recorded.code).toBe(0);

    const text = await readFile(file, 'utf8');
    expect(text).toContain('token=<redacted>');
    expect(text).not.toContain(token);
    expect(text).not.toContain(header);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The events it printed while it ran (--jsonl: the tool's output) carry none either.
    expect(recorded.stdout).toContain('token=<redacted>');
    expect(recorded.stderr + recorded.stdout).not.toContain(token);
  });

  it('an --extra-args value claude echoes in its error: the header names the flag, the value is <redacted>; an existing 0644 file becomes 0600', async () => {
    // The careless user: a token given as the value of a flag; claude prints
    // "error: unknown option '--bogus-key=sk-…'" on stderr and exits 1.
    const { env, flags, workDir } = await fake([{ text: 'unused' }]);
    const file = join(workDir, 'failed.jsonl');
    await writeFile(file, 'an older recording\n', { mode: 0o644 });
    const recorded = await coderline(['record', '--cli', 'claude', ...flags, `--extra-args=--bogus-key=${token}`, '--extra-args=--api-key', `--extra-args=${token}`, '-o', file, '--json', '--verbose', 'hi'], { env });
    expect(recorded.code).not.toBe(0);

    const text = await readFile(file, 'utf8');
    const head = JSON.parse(text.split('\n')[0]!) as { opts: { extraArgs?: string[] }; status: string };
    expect(head.status).toBe('error');
    expect(head.opts.extraArgs).toEqual(['--bogus-key=<redacted>', '--api-key', '<redacted>']);
    expect(text).not.toContain(token);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The result on stdout and the progress on stderr (the CLI's stderr with --verbose) show <redacted>.
    const result = JSON.parse(recorded.stdout) as { error: { message: string } };
    expect(result.error.message).toContain("unknown option '--bogus-key=<redacted>'");
    expect(recorded.stdout + recorded.stderr).not.toContain(token);
  });
});
