// Session ids are checked before anything spawns, wherever they come from: a caller (resume(), open(),
// the sessionId option, a queue job's session), the CLI's own output (the id a later turn resumes, the
// id fork() forks) and the CLI's store (listSessions(), readSession()). The attacker supplies the id:
// an app passes a user's id through, and a CLI that takes it as a bare argument reads a flag.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOnce } from '../../src/core/session/run-once.js';
import { createCoder, InvalidOptionsError, run, type SessionInfo } from '../../src/index.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Options that make the fake CLI write `marker` whenever it starts a turn (not for --version). */
function watched(steps: unknown[]) {
  const dir = mkdtempSync(join(tmpdir(), 'coderline-ids-'));
  dirs.push(dir);
  const marker = join(dir, 'started');
  return { marker, opts: script(steps, { FAKE_CLI_MARKER: marker }) };
}

/** What an attacker passes as an id: flags, `--last`, whitespace, control characters, paths, nothing. */
const hostileIds = [
  '',
  '-',
  '--last',
  '--dangerously-bypass-approvals-and-sandbox',
  '-c',
  ' 0cb916db-26aa-40f2-86b5-1ba81b225fd2',
  'id with spaces',
  'id\twith\ttabs',
  'id\nsecond line',
  'id\u0000nul',
  '\u001b[31mred',
  '../../etc/passwd',
  '/tmp/x.jsonl',
  'a\\b',
  'trailing-',
  'x'.repeat(257),
];
const goodIds = ['0cb916db-26aa-40f2-86b5-1ba81b225fd2', '01a23d07-6fca-7241-82ab-c2e74e36833c', 'abc', 'T1', 'sess-1', 'my_id.v2', 'x'.repeat(256)];

const fake = fakeAdapter();

describe('session ids: refused before anything spawns', () => {
  it('resume(): each hostile id is an InvalidOptionsError naming resume(), and the CLI never starts', async () => {
    const { marker, opts } = watched([done()]);
    const coder = createCoder(fake, opts);
    for (const id of hostileIds) {
      // The attacker: an app resumes the session id a user sent, e.g. "--last".
      expect(() => coder.resume(id), JSON.stringify(id)).toThrow(InvalidOptionsError);
      expect(() => coder.resume(id)).toThrow(/resume\(\): .* is not a session id/);
    }
    expect(() => coder.resume(42 as unknown as string)).toThrow(/resume\(\): number is not a session id/);
    expect(existsSync(marker)).toBe(false);
    // The ids the CLIs make and take still resume.
    for (const id of goodIds) expect(coder.resume(id).id).toBe(id);
    await coder.resume('abc').run('x');
    expect(existsSync(marker)).toBe(true);
  });

  it('a hostile id is cut in the message: a long one does not fill it', () => {
    const coder = createCoder(fake, {});
    expect(() => coder.resume(`--${'x'.repeat(5000)}`)).toThrow(/^Invalid options:\n {2}- resume\(\): "--x{78}…" is not a session id/);
  });

  it('open(options, { sessionId }): rejects with InvalidOptionsError before the live process starts', async () => {
    const { marker, opts } = watched([done()]);
    const coder = createCoder(fake, opts);
    for (const id of ['--last', 'a b', '']) {
      await expect(coder.open({}, { sessionId: id })).rejects.toThrow(/open\(options, \{ sessionId \}\): .* is not a session id/);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('the sessionId option (a new session\'s id): refused on a coder, a session, a one-shot run', async () => {
    const { marker, opts } = watched([done()]);
    for (const id of ['--resume=someone-elses', ' x', 'x\n']) {
      expect(() => createCoder(fake, { ...opts, sessionId: id })).toThrow(/sessionId: a session id is 1 to 256 letters/);
      expect(() => createCoder(fake, opts).start({ sessionId: id })).toThrow(InvalidOptionsError);
      await expect(run(fake, 'x', { ...opts, sessionId: id })).rejects.toThrow(InvalidOptionsError);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("a queue job's session.resume / session.fork (the worker's one-shot run): refused by name before a coder is made", async () => {
    const { marker, opts } = watched([done()]);
    // The attacker: a job whose session.resume is "--last" (producers pass ids from their users).
    await expect(runOnce(fake, 'x', opts, { session: { kind: 'resume', sessionId: '--last' } })).rejects.toThrow(/session\.resume: "--last" is not a session id/);
    await expect(runOnce(fake, 'x', opts, { session: { kind: 'fork', sessionId: '-x y' } })).rejects.toThrow(/session\.fork: "-x y" is not a session id/);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('session ids the CLI gives back are untrusted too', () => {
  it('an id in the CLI\'s output that is no session id: the next turn and fork() fail before the CLI starts again', async () => {
    // The attacker controls what the CLI prints (a stand-in binary, a poisoned record): its init names "--last".
    const { marker, opts } = watched([{ out: { type: 'init', sessionId: '--last' } }, done('first')]);
    const coder = createCoder(fake, opts);
    const session = coder.start();
    expect((await session.run('one')).text).toBe('first');
    rmSync(marker);
    await expect(session.run('two')).rejects.toThrow(/the session id to resume: "--last" is not a session id/);
    const fork = await session.fork();
    await expect(fork.run('three')).rejects.toThrow(/the session id to fork: "--last" is not a session id/);
    // resumeLatest() learns its id from the CLI: the same check holds on its next turn.
    const latest = coder.resumeLatest();
    await latest.run('four');
    rmSync(marker);
    await expect(latest.run('five')).rejects.toThrow(InvalidOptionsError);
    expect(existsSync(marker)).toBe(false);
  });

  it('listSessions() leaves out a stored session whose id is no session id; readSession() refuses one', async () => {
    const stored = (id: string): SessionInfo => ({ id, title: undefined, updatedAt: '2026-01-01T00:00:00.000Z', workingDirectory: undefined });
    const read: string[] = [];
    // The attacker planted a session file in the store whose header names "--last".
    const coder = createCoder(fakeAdapter({
      sessionStore: {
        list: async () => [stored('--last'), stored('ok-1'), stored('a b')],
        read: async (_ctx, id) => {
          read.push(id);
          return [];
        },
      },
    }));
    expect((await coder.listSessions()).map((session) => session.id)).toEqual(['ok-1']);
    await expect(coder.readSession('../../x')).rejects.toThrow(/readSession\(\): "..\/..\/x" is not a session id/);
    expect(read).toEqual([]);
    await coder.readSession('ok-1');
    expect(read).toEqual(['ok-1']);
  });
});

describe('a resume names a whole session, never a part of one (claude, codex, copilot, gemini)', () => {
  // The attacker's step: a job (or a user an app passes through) names the first characters of someone
  // else's session id, or a session's name. Copilot resumes `--resume=<7+ hex prefix>` and by name, Codex
  // `resume <thread name>`, Gemini `--resume <index>`: the run would continue another session, with its
  // history. These CLIs make only UUIDs, so anything else is refused before the CLI starts.
  const parts = ['0cb916d', '0cb916db', 'release-notes', '1', 'latest'];
  it.each(['claude', 'codex', 'copilot', 'gemini'] as const)('%s: resume() and fork of a prefix or a name are InvalidOptionsError before anything spawns', async (cli) => {
    const coder = createCoder(cli, { executablePath: '/nonexistent/cli' });
    for (const id of parts) {
      const result = coder.resume(id).run('Continue.');
      await expect(result).rejects.toBeInstanceOf(InvalidOptionsError);
      await expect(result).rejects.toThrow(/not a (whole )?\w+ session id/i);
    }
    // A whole id gets past the check (then fails for the missing executable, which shows nothing ran before).
    await expect(coder.resume('0cb916db-26aa-40f2-86b5-1ba81b225fd2').run('Continue.')).rejects.toMatchObject({ code: 'binary_not_found' });
    await coder.close();
  });
});
