// docs/cli.md shows the command's own help texts; they are derived from the options schema, so a
// changed option changes them and this test says the page is out of date.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { doctorHelp, replayHelp, runHelp } from '../../src/cli/help.js';
import { repoRoot } from './command.js';

const page = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');
const regenerate = 'docs/cli.md is out of date: paste the output of `node --import tsx src/cli/main.ts <command> --help` into its block';

describe('docs/cli.md', () => {
  it.each([
    ['run', runHelp('run')],
    ['replay', replayHelp()],
    ['doctor', doctorHelp()],
  ])('holds the current `coderline %s --help`', (_command, help) => {
    expect(page.includes(`\`\`\`text\n${help}\`\`\``), regenerate).toBe(true);
  });

  it('lists every exit code', () => {
    for (const code of Object.values(EXIT)) expect(page).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  });
});
