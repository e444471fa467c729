// A CLI's session store lives where the agent it runs can write (the user's home, the coder's state
// dir), and so does a report the CLI leaves at exit. The attacker: a pull request asks the agent to run
// `mkfifo ~/.claude/projects/x/<id>.jsonl` or `ln -s ~/.ssh/id_ed25519 …/<id>.jsonl`. Before, the
// host's listSessions() waited forever on the FIFO, and readSession() read the key as history.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { readUsageFile } from '../../src/adapters/copilot/usage-file.js';
import { readStoreText } from '../../src/core/session/store-file.js';
import { CoderError, createCoder } from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'coderline-store-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const good = '0cb916db-26aa-40f2-86b5-1ba81b225fd2';
const fifo = '1cb916db-26aa-40f2-86b5-1ba81b225fd2';
const linked = '2cb916db-26aa-40f2-86b5-1ba81b225fd2';

function claudeStore(): string {
  const configDir = join(root, 'claude');
  const project = join(configDir, 'projects', '-work-repo');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${good}.jsonl`), `${JSON.stringify({ type: 'user', cwd: '/work/repo', sessionId: good, message: { role: 'user', content: 'Fix it.' } })}\n`);
  execFileSync('mkfifo', [join(project, `${fifo}.jsonl`)]);
  const secret = join(root, 'id_ed25519');
  writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\n');
  symlinkSync(secret, join(project, `${linked}.jsonl`));
  return configDir;
}

describe('files the agent could have written are read only as regular files', () => {
  it('listSessions() leaves out a FIFO and a symlink in the store; readSession() of either is a typed error', async () => {
    const coder = createCoder(claudeAdapter, { extraEnv: { CLAUDE_CONFIG_DIR: claudeStore() } });
    expect((await coder.listSessions({ allDirectories: true })).map((session) => session.id)).toEqual([good]);
    for (const id of [fifo, linked]) {
      const read = coder.readSession(id);
      await expect(read).rejects.toBeInstanceOf(CoderError);
      await expect(read).rejects.not.toThrow(/PRIVATE KEY/);
    }
    await expect(coder.readSession(good)).resolves.toBeDefined();
  });

  it('a report left at exit that is a FIFO is an error, not a wait (copilot\'s usage file)', async () => {
    const path = join(root, 'copilot-usage.json');
    execFileSync('mkfifo', [path]);
    await expect(readUsageFile(path)).rejects.toThrow(/not a regular file/);
  });

  it('a file over the bound is refused by its size, not read', async () => {
    const path = join(root, 'big.jsonl');
    writeFileSync(path, 'x'.repeat(2048));
    await expect(readStoreText(path, 1024)).rejects.toThrow(/holds 2048 bytes, more than the 1024/);
    await expect(readStoreText(path, 4096)).resolves.toHaveLength(2048);
  });
});
