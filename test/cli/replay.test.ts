// `coderline replay` on bare stdout lines (a fixture, no header): --cli says which translator.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coderline, repoRoot } from './command.js';

const fixture = join(repoRoot, 'fixtures', 'codex', '0.171.0', 'reasoning.jsonl');

describe('coderline replay', () => {
  it('translates a headerless fixture with --cli, the same bytes every time', async () => {
    const first = await coderline(['replay', '--cli', 'codex', fixture]);
    const second = await coderline(['replay', '--cli', 'codex', fixture]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const events = first.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; provider: string; ts: number });
    expect(events.map((event) => event.type)).toContain('reasoning');
    expect(events.at(-1)?.type).toBe('done');
    expect(events.every((event) => event.provider === 'codex' && event.ts === 0)).toBe(true);
  });

  it('asks for --cli when the file has no header, and names a missing file', async () => {
    const noCli = await coderline(['replay', fixture]);
    expect(noCli.code).toBe(2);
    expect(noCli.stderr).toMatch(/has no coderline header, so the CLI is unknown\nSay which CLI printed it: --cli claude\|codex\|copilot\|pi/);

    const missing = await coderline(['replay', '/nonexistent/run.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read "\/nonexistent\/run\.jsonl": ENOENT/);
  });
});
