// README's `npm run demo`, as a newcomer runs it on a fresh clone without keys: the pinned claude
// binary against the embedded fake model, a real tool call in a scratch directory, events as they
// happen, the answer on stdout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot, startScript } from './command.js';

it('npm run demo: the real claude calls its Bash tool against the fake model, offline, and answers', async () => {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.demo).toBe('tsx examples/demo.ts');

  const env = { ...process.env };
  delete env.ANTHROPIC_API_KEY;
  const { code, stdout, stderr } = await startScript(join(repoRoot, 'examples', 'demo.ts'), [], { env }).done;

  expect(stderr).toMatch(/demo: claude against the fake model at http:\/\/127\.0\.0\.1:\d+ \(offline/);
  expect(stderr).toMatch(/\[init\] started claude/);
  expect(stderr).toContain('[tool_use] tool Bash: ls');
  // The command really ran in the scratch directory: its output names the file the demo put there.
  expect(stderr).toMatch(/\[tool_result\] tool Bash returned: .*notes\.txt/);
  expect(stderr).toMatch(/done in [\d.]+s · 20 in \/ 10 out tokens/);
  expect({ code, stdout }).toEqual({ code: 0, stdout: 'The directory holds notes.txt, a one-line note for this demo.\n' });
});
