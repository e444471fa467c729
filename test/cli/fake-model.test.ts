// `coderline run --fake-model FILE`: any of the four real CLIs answered by coderline/testing's fake model
// on 127.0.0.1, from the shell, with one flag instead of the environment `model.env()` builds.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coderline, repoRoot } from './command.js';

const dir = mkdtempSync(join(tmpdir(), 'coderline-fake-flag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(repoRoot, 'node_modules', '.bin');
// pi 1.x needs Node >= 22.19 on its PATH (test/support/global-setup.ts installs it).
const node22 = join(repoRoot, 'test', 'runtime', 'node22', 'node_modules', 'node', 'bin');

function scriptFile(name: string, content: string): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('coderline run --fake-model', () => {
  const script = scriptFile('hello.json', JSON.stringify([{ text: 'Hello from the script.' }]));

  it.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'])('runs the real %s against the scripted fake model, and removes what it set up', async (cli) => {
    const temp = mkdtempSync(join(dir, `tmp-${cli}-`));
    const env = { ...process.env, TMPDIR: temp, PATH: `${node22}:${bin}:${process.env.PATH ?? ''}` };
    const result = await coderline(['run', '--cli', cli, '--fake-model', script, '--json', '-q', 'Say hello'], { env });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'success', text: 'Hello from the script.', error: null });
    expect(result.code).toBe(0);
    expect(readdirSync(temp).filter((name) => name.startsWith('coderline-fake-'))).toEqual([]);
  }, 120_000);

  it.each([
    ['not an array', '{"text":"x"}', 'is not a non-empty JSON array'],
    ['not JSON', '[{"text":', 'is not JSON'],
    ['a misspelt key', '[{"text":"a"},{"txt":"b"}]', 'step 1, txt: Invalid key'],
    ['an error step without a number', '[{"kind":"error","status":"500"}]', 'step 0, status: Invalid type: Expected number'],
  ])('refuses a script that is %s with a usage error naming the step, before any CLI starts', async (_what, content, message) => {
    // An empty PATH: a CLI that started anyway would be "not found" (exit 5), not a usage error.
    const result = await coderline(['run', '--cli', 'claude', '--fake-model', scriptFile('bad.json', content), 'x'], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });
});
