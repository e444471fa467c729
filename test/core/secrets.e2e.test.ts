// Secrets stay where they were given: the real claude and codex, against the fake model servers, echo
// a secret the run was given (in their stderr, their records, a tool's output) and nothing the SDK
// hands on — events, error messages, results, a live session's errors and recording — carries it.
// onRawLine is the caller's own stream: it gets every line as printed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import type { RecordedLine } from '../../src/replay/live-recording.js';
import { LiveSession } from '../../src/core/live/live.js';
import { CliExitError, createCoder, run, type CoderStreamEvent, type OneShotOpts } from '../../src/index.js';
import { startFakeModel, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';

const token = `sk-live-${'7f3a'.repeat(6)}`;

async function fake(cli: 'claude' | 'codex', script: Script): Promise<OneShotOpts> {
  const model = await startFakeModel({ api: cli === 'claude' ? 'anthropic' : 'openai-responses', script });
  const workDir = await mkdtemp(join(tmpdir(), `coderline-secrets-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  return { ...(await model.env(cli)), workingDirectory: workDir };
}

const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'run a command' } });
const stderrOf = (events: readonly CoderStreamEvent[]) => events.flatMap((event) => (event.type === 'stderr' ? [event.line] : [])).join('\n');

describe('a secret the CLI echoes (real binaries, fake model servers)', () => {
  it('claude: an extraArgs value echoed on stderr is <redacted> in the stderr events and the error message', async () => {
    // The careless user: a token passed as the value of a flag this claude does not know. claude
    // echoes its argv: "error: unknown option '--bogus-key=sk-…'" on stderr, then exits 1.
    const opts = await fake('claude', []);
    const events: CoderStreamEvent[] = [];
    const result = await run('claude', 'hi', { ...opts, extraArgs: [`--bogus-key=${token}`], onEvent: (event) => events.push(event) });

    expect(result.status).toBe('error');
    expect(stderrOf(events)).toContain("unknown option '--bogus-key=<redacted>'");
    expect(result.error).toBeInstanceOf(CliExitError);
    expect(result.error!.message).toContain("unknown option '--bogus-key=<redacted>'");
    expect((result.error as CliExitError).stderrTail).toContain('<redacted>');
    expect(JSON.stringify({ events, result, message: result.error!.message })).not.toContain(token);
  });

  it('claude: a tool that prints an extraEnv value, and a model that repeats it — events and result show <redacted>, onRawLine the line as printed', async () => {
    // The attacker: a prompt (or a file the agent reads) makes the agent print the deploy token the
    // job gave the CLI's environment, and repeat it in its answer.
    const opts = await fake('claude', [{ text: 'Looking.', toolCalls: [bash('echo "token=$DEPLOY_TOKEN"')] }, { text: `The token is ${token}.` }]);
    const events: CoderStreamEvent[] = [];
    const raw: string[] = [];
    const result = await run('claude', 'Print the deploy token', {
      ...opts,
      extraEnv: { ...opts.extraEnv, DEPLOY_TOKEN: token },
      permissionPolicy: { allow: ['Bash'] },
      onEvent: (event) => events.push(event),
      onRawLine: (line) => raw.push(line),
    });

    expect(result.status).toBe('success');
    const toolResult = events.find((event) => event.type === 'tool_result');
    expect(JSON.stringify(toolResult?.output)).toContain('token=<redacted>');
    expect(result.text).toBe('The token is <redacted>.');
    expect(events.find((event) => event.type === 'done')).toMatchObject({ text: 'The token is <redacted>.' });
    expect(JSON.stringify({ events, result })).not.toContain(token);
    // The caller's own raw stream is lossless.
    expect(raw.join('\n')).toContain(`token=${token}`);
  });

  it('codex: a codexConfig value echoed in its config error is <redacted> in the stderr events and the error message', async () => {
    // A config value that is a token, in a key codex rejects: codex prints "unknown variant `sk-…`".
    const opts = await fake('codex', []);
    const events: CoderStreamEvent[] = [];
    const result = await run('codex', 'hi', { ...opts, codexConfig: { ...opts.codexConfig, sandbox_mode: token }, onEvent: (event) => events.push(event) });

    expect(result.status).toBe('error');
    expect(stderrOf(events)).toContain('unknown variant `<redacted>`');
    expect(result.error!.message).toContain('unknown variant `<redacted>`');
    expect(JSON.stringify({ events, result, message: result.error!.message })).not.toContain(token);
  });

  it('claude live: the error of a session whose CLI echoed the secret shows <redacted>', async () => {
    // The same careless extraArgs as above, on a live session.
    const opts = await fake('claude', []);
    const coder = createCoder('claude');
    cleanupAfterTest(() => coder.close());
    const failure = await (async () => {
      const live = await coder.open({ ...opts, extraArgs: [`--bogus-key=${token}`] });
      try {
        return (await live.send('hi').result).error;
      } finally {
        await live.close();
      }
    })().catch((error: unknown) => error as Error);
    expect(failure?.message).toContain("unknown option '--bogus-key=<redacted>'");
    expect(failure?.message).not.toContain(token);
  });

  it('claude live: a recording (LiveHost.recordLine, what `npm run record -- --live` writes) has the secret redacted both ways', async () => {
    // A tool prints the extraEnv token; the recording of the session must not keep it.
    const opts = await fake('claude', [{ text: 'Looking.', toolCalls: [bash('echo "token=$DEPLOY_TOKEN"')] }, { text: 'Done.' }]);
    const stateDir = await mkdtemp(join(tmpdir(), 'coderline-secrets-state-'));
    cleanupAfterTest(() => rm(stateDir, { recursive: true, force: true }));
    const recorded: RecordedLine[] = [];
    const live = await LiveSession.open(
      claudeAdapter,
      { cwd: opts.workingDirectory!, coderStateDir: async () => stateDir, recordLine: (line) => recorded.push(line) },
      { ...opts, extraEnv: { ...opts.extraEnv, DEPLOY_TOKEN: token }, permissionPolicy: { allow: ['Bash'] } },
      { kind: 'new' },
    );
    try {
      const result = await live.send(`Print the token (${token} is not it)`).result;
      expect(result.status).toBe('success');
    } finally {
      await live.close();
    }
    const text = recorded.map((line) => line.line).join('\n');
    expect(text).toContain('token=<redacted>');
    expect(recorded.some((line) => line.dir === 'host' && line.line.includes('<redacted> is not it'))).toBe(true);
    expect(text).not.toContain(token);
  });
});
