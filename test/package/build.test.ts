// `npm run build` emits ESM, CJS and types for every entry in package.json's exports map.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
type Conditions = { import: { types: string; default: string }; require: { types: string; default: string } };
const exportsMap = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, Conditions | string> }).exports;
const entries = Object.entries(exportsMap).filter((entry): entry is [string, Conditions] => typeof entry[1] !== 'string');

describe('the built package', () => {
  // Type declarations take most of the build: minutes on a loaded machine.
  beforeAll(() => {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }, 600_000);

  it('has every file the exports map names', () => {
    const files = entries.flatMap(([, c]) => [c.import.types, c.import.default, c.require.types, c.require.default]);
    expect(files.filter((file) => !existsSync(`${root}${file}`))).toEqual([]);
  });

  it.each(entries.map(([subpath]) => subpath))('"%s" loads with import() and with require()', (subpath) => {
    const specifier = subpath === '.' ? 'coderline' : `coderline/${subpath.slice(2)}`;
    // The package resolves itself by name (self-reference through the exports map).
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import('${specifier}'); console.log(Object.keys(m).sort().join(','))`], { cwd: root, encoding: 'utf8' });
    const cjs = execFileSync(process.execPath, ['-e', `console.log(Object.keys(require('${specifier}')).sort().join(','))`], { cwd: root, encoding: 'utf8' });
    expect(esm.trim()).not.toBe('');
    expect(cjs.trim()).toBe(esm.trim());
    if (subpath === '.') expect(esm.trim().split(',')).toEqual(expect.arrayContaining(['run', 'createCoder', 'createPool']));
  });

  // The bundle carries its own tree-shaken zod runtime (src/core/zod-runtime.ts): it must validate
  // options without loading the zod package (whose entry points pull in every locale), and turn the
  // caller's zod schemas, made with the caller's own zod, into JSON Schema.
  it.each([
    ['import()', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); const { run, tool } = await import('coderline');`],
    ['require()', `const { run, tool } = require('coderline');`],
  ])('the bundle validates with its own zod runtime, under %s', (how, load) => {
    const program = `${load}
      const error = await run('claude', 'x', { maxTurns: 'three' }).catch((e) => e);
      const loaded = Object.keys(require.cache).filter((file) => file.includes('zod')).map((file) => file.slice(file.indexOf('dist/')));
      const { z } = require('zod');
      const made = tool({ name: 'read', description: 'd', input: z.object({ path: z.string().describe('where') }), handler: () => '' });
      console.log(JSON.stringify({ schema: made.inputJsonSchema, error: [error.name, error.message], loaded }));`;
    const args = how === 'import()' ? ['--input-type=module', '-e', program] : ['-e', `(async () => { ${program} })()`];
    const out = JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' })) as { schema: unknown; error: string[]; loaded: string[] };
    expect(out.error[0]).toBe('InvalidOptionsError');
    expect(out.error[1]).toContain('maxTurns: Invalid input: expected number, received string');
    expect(out.loaded).toEqual(['dist/zod-runtime.cjs']);
    expect(out.schema).toMatchObject({ type: 'object', properties: { path: { type: 'string', description: 'where' } }, required: ['path'] });
  });
});
