// The suite's own guarantees against neighbours (other test files, another checkout tested at once).
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotTestHome } from '../../src/testing/copilot-env.js';
import { isProcessAlive, pidsWithMarker, processTable, uniqueMarker } from './processes.js';

describe('test isolation', () => {
  it('every worker has the private temp folder of this run of the suite', () => {
    expect(basename(tmpdir())).toMatch(/^coderline-suite-/);
  });

  it('the copilot HOME belongs to this checkout', () => {
    expect(dirname(copilotTestHome())).toBe(`${process.cwd()}/node_modules/.cache`);
  });

  it('the process table is read for real: it lists this process, and a marker no process carries finds nothing', () => {
    expect(processTable().some((entry) => entry.pid === process.pid)).toBe(true);
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(pidsWithMarker(uniqueMarker('nobody'))).toEqual([]);
  });
});

/** The test sources under `dir` (node_modules, such as test/runtime's, not entered). */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every test source but this file, whose rules name what they forbid. */
const testSources = sourcesUnder(join(import.meta.dirname, '..'))
  .filter((path) => path !== import.meta.filename)
  .map((path) => ({ file: relative(process.cwd(), path), text: readFileSync(path, 'utf8') }));

/** Each rule with a line it must catch, so a rule that matches nothing cannot pass for one that holds. */
const staticRules: Array<{ rule: string; pattern: RegExp; caught: string; allowedIn?: string }> = [
  {
    rule: 'the process table is read only through test/support/processes.ts (markers, a run\'s own group or pids)',
    pattern: /\b(pgrep|pkill|killall)\b|(spawn|spawnSync|exec|execSync|execFile|execFileSync)\(\s*['"`]ps\b|readdirSync\(\s*['"`]\/proc['"`]/,
    caught: "execSync('ps -ef | grep tail')",
    allowedIn: 'test/support/processes.ts',
  },
  { rule: 'no fixed port: listen(0) and ask the server which it got', pattern: /\.listen\(\s*[1-9]/, caught: 'server.listen(8080)' },
  {
    rule: 'no fixed temp path written to: under tmpdir(), made by mkdtemp',
    pattern: /(writeFile|mkdir|appendFile|copyFile|symlink|rm)(Sync)?\(\s*['"`]\/tmp\//,
    caught: "writeFileSync('/tmp/out.json', data)",
  },
  { rule: 'no fixed HOME: a temp dir of the test, or the checkout\'s copilot HOME', pattern: /\bHOME: ['"`]/, caught: "{ HOME: '/tmp/home' }" },
  {
    rule: 'a wall-clock bound on a run leaves a loaded machine room (30 s or more)',
    pattern: /Date\.now\(\) - \w+\)\.toBeLessThan\((?:[0-9]_?[0-9]{3}|[12][0-9]_?[0-9]{3})\)/,
    caught: 'expect(Date.now() - started).toBeLessThan(20_000)',
  },
];

describe('test sources keep the isolation rules', () => {
  it.each(staticRules)('$rule', ({ pattern, caught, allowedIn }) => {
    expect(pattern.test(caught)).toBe(true);
    expect(testSources.map(({ file }) => file)).toContain('test/support/processes.ts');
    const offenders = testSources
      .filter(({ file }) => file !== allowedIn)
      .flatMap(({ file, text }) => text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });
});
