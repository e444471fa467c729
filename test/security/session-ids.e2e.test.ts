// Real binaries (claude 2.1.332, codex 0.171.0, copilot 1.0.102, pi 1.6.0) against the fake model
// servers on 127.0.0.1: a session id that would be a flag is refused with InvalidOptionsError and the
// CLI is never started (a wrapper executable logs every start, the version probe's included), while
// the ids the CLI itself made still resume. Before the check, codex 0.171.0 ran
// `exec … resume --dangerously-bypass-approvals-and-sandbox -` as a new unsandboxed thread, and
// `resume --last -` continued the newest thread of the directory, whoever's it was.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { geminiAdapter } from '../../src/adapters/gemini/index.js';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import { runOnce } from '../../src/core/session/run-once.js';
import { createCoder, InvalidOptionsError, type ProviderName, type SharedStartOpts } from '../../src/index.js';
import { fakeApiOf, startFakeModel, type FakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

const fakes: FakeModel[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `coderline-ids-${label}-`));
  dirs.push(dir);
  return dir;
};

/** A wrapper around the pinned binary that appends one line per start (its arguments, bracketed) to `log`. */
function loggingExecutable(cli: ProviderName, log: string): string {
  const real = resolve('node_modules/.bin', cli);
  const wrapper = join(tempDir(`${cli}-bin`), cli);
  writeFileSync(wrapper, `#!/bin/sh\n{ printf 'start'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'; } >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

const starts = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);

const adapters: Record<ProviderName, AdapterSpec> = { claude: claudeAdapter, codex: codexAdapter, copilot: copilotAdapter, pi: piAdapter, gemini: geminiAdapter, opencode: opencodeAdapter };

/** Flags each CLI has that an attacker would want an id to become. */
const attackerIds: Record<ProviderName, string[]> = {
  claude: ['--dangerously-skip-permissions', '--continue', '--resume'],
  codex: ['--dangerously-bypass-approvals-and-sandbox', '--last', '--all'],
  copilot: ['--allow-all', '--continue', '--resume'],
  pi: ['--no-session', '--continue', '--session-dir=/tmp'],
  gemini: ['--yolo', '--approval-mode=yolo', '--resume'],
  opencode: ['--auto', '--continue', '--fork'],
};

async function setup(cli: ProviderName): Promise<{ fake: FakeModel; opts: SharedStartOpts; log: string; cwd: string }> {
  const fake = await startFakeModel({ api: fakeApiOf[cli], script: [{ text: 'First answer.' }, { text: 'Resumed answer.' }] });
  fakes.push(fake);
  const cwd = tempDir(`${cli}-ws`);
  const log = join(tempDir(`${cli}-log`), 'starts.log');
  const opts = withPinnedRuntime(cli, { ...(await fake.env(cli)), workingDirectory: cwd, executablePath: loggingExecutable(cli, log) });
  return { fake, opts, log, cwd };
}

describe.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('%s (real binary): session ids', (cli) => {
  it('an id that is a flag is InvalidOptionsError and starts nothing; the id the CLI made resumes', async () => {
    const { fake, opts, log } = await setup(cli);
    const coder = createCoder(adapters[cli], opts);
    cleanupAfterTest(() => coder.close());
    const first = await coder.start().run('Say something.');
    expect(first.status).toBe('success');
    const id = first.sessionId!;
    const startsBefore = starts(log).length;
    const requestsBefore = fake.requests.length;
    expect(startsBefore).toBeGreaterThan(0);

    for (const hostile of [...attackerIds[cli], `-${id}`, `${id} --last`, `${id}\n`]) {
      // The attacker: an app resumes (or opens live, or queues) the id a user sent.
      expect(() => coder.resume(hostile), JSON.stringify(hostile)).toThrow(InvalidOptionsError);
      await expect(coder.open({}, { sessionId: hostile })).rejects.toThrow(InvalidOptionsError);
      await expect(runOnce(adapters[cli], 'x', opts, { session: { kind: 'resume', sessionId: hostile } })).rejects.toThrow(/session\.resume: .* is not a session id/);
    }
    expect(starts(log)).toHaveLength(startsBefore);
    expect(fake.requests).toHaveLength(requestsBefore);

    const resumed = await coder.resume(id).run('Again.');
    expect(resumed).toMatchObject({ status: 'success', sessionId: id, text: 'Resumed answer.' });
    const resumeStart = starts(log).at(-1)!;
    expect(resumeStart).toContain(id);
    // codex takes its positional id after `--`; the others bind it to a flag.
    if (cli === 'codex') expect(resumeStart).toContain(`[resume] [--] [${id}] [-]`);
  });
});

describe('pi (real binary): an id pi would open as a path', () => {
  it('resume("notes.jsonl") is refused, and pi writes no session file into the working directory', async () => {
    const { opts, log, cwd } = await setup('pi');
    const coder = createCoder(piAdapter, opts);
    cleanupAfterTest(() => coder.close());
    // The attacker: an id that pi 1.6.0 reads as a file path (from its cwd), where it would write the session.
    await expect(coder.resume('notes.jsonl').run('x')).rejects.toThrow(/ends in \.jsonl, which pi opens as a file path/);
    expect(existsSync(join(cwd, 'notes.jsonl'))).toBe(false);
    expect(starts(log)).toEqual([]);
  });

  it('resume() of a prefix fails before pi starts; before, pi 1.6.0 continued the newest session whose id starts with it', async () => {
    const { fake, opts, log } = await setup('pi');
    const coder = createCoder(piAdapter, opts);
    cleanupAfterTest(() => coder.close());
    const first = await coder.start().run('Say something.');
    expect(first.status).toBe('success');
    const startsBefore = starts(log).length;
    // The attacker: resume("0") — every UUIDv7 starts with 0 — to continue whichever session is there.
    for (const prefix of ['0', first.sessionId!.slice(0, 8)]) {
      await expect(coder.resume(prefix).run('x')).rejects.toMatchObject({ code: 'session_not_found', message: expect.stringContaining(`pi found no session "${prefix}"`) });
    }
    expect(starts(log)).toHaveLength(startsBefore);
    expect(fake.requests).toHaveLength(1);
    // And the live process likewise.
    await expect(coder.open({}, { sessionId: '0' })).rejects.toMatchObject({ code: 'session_not_found' });
    expect(starts(log)).toHaveLength(startsBefore);
  });
});

describe('values that look like flags reach the real binaries as values', () => {
  /** The model each CLI asked the fake server for, given a model name that is one of its flags. */
  const flagModels: Record<ProviderName, string> = {
    claude: '--dangerously-skip-permissions',
    codex: '--dangerously-bypass-approvals-and-sandbox',
    copilot: '--allow-all',
    pi: '--no-tools',
    gemini: '--yolo',
    // A model OpenCode's config lacks never reaches the model API: test/opencode/argv.test.ts shows the value stays one.
    opencode: 'fake/--auto',
  };

  it.each(['claude', 'codex', 'copilot', 'pi', 'gemini'] as const)('%s: model "--…" is the model the request names', async (cli) => {
    // The attacker picks the model name (a form field, a job option). Before, codex and copilot exited
    // with "a value is required for '--model'": the spaced value was read as a flag.
    const { fake, opts } = await setup(cli);
    const result = await runOnce(adapters[cli], 'Say something.', { ...opts, model: flagModels[cli] });
    expect(result.status).toBe('success');
    // Gemini names the model in the path (`/v1beta/models/<model>:streamGenerateContent`).
    const requested = cli === 'gemini' ? decodeURIComponent(/\/models\/([^:]+):/.exec(fake.requests[0]?.path ?? '')?.[1] ?? '') : (fake.requests[0]?.body as { model?: unknown }).model;
    expect(requested).toBe(flagModels[cli]);
  });

  it('copilot: an addDirs entry and an agent that look like --allow-all are a directory and an agent name', async () => {
    const { fake, opts } = await setup('copilot');
    const dir = await runOnce(copilotAdapter, 'x', { ...opts, addDirs: ['--allow-all'] });
    expect(dir.error?.message).toMatch(/--add-dir <directory>' argument '--allow-all' is invalid/);
    const agent = await runOnce(copilotAdapter, 'x', { ...opts, copilotAgent: '--allow-all' });
    expect(agent.error?.message).toMatch(/No such agent: --allow-all/);
    expect(fake.requests).toHaveLength(0);
  });
});
