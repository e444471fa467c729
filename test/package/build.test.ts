// `npm run build` emits ESM, CJS and types for every entry in package.json's exports map.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestedNpmEnv } from '../../scripts/npm-env.js';
import { FAKE_CLI } from '../support/fake-adapter.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
type Conditions = { import: { types: string; default: string }; require: { types: string; default: string } };
type Dependencies = Record<string, string>;
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, Conditions | string>;
  engines: { node: string };
  dependencies: Dependencies;
  peerDependencies: Dependencies;
  devDependencies: Dependencies;
};
const entries = Object.entries(manifest.exports).filter((entry): entry is [string, Conditions] => typeof entry[1] !== 'string');
const FLOOR_NODE = `${root}test/runtime/node-floor/node_modules/node/bin/node`;
/** `engines.node` is a `>=` range: its version is the floor. */
const FLOOR_VERSION = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)![1]!;

describe('the built package', () => {
  // `npm pack` as on a fresh clone: no dist/ until its prepack builds one, so a package without that
  // script would miss every file below. Type declarations take most of the build: minutes under load.
  const packed = mkdtempSync(join(tmpdir(), 'coderline-packed-'));
  let tarball = '';
  beforeAll(() => {
    rmSync(`${root}dist`, { recursive: true, force: true });
    const out = execFileSync('npm', ['pack', '--pack-destination', packed, '--json'], { cwd: root, env: nestedNpmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    // The build's own output comes first on stdout; npm's JSON report is the rest.
    const report = JSON.parse(out.slice(out.indexOf('[\n'))) as Array<{ filename: string }>;
    tarball = join(packed, report[0]!.filename);
  }, 600_000);
  afterAll(() => rmSync(packed, { recursive: true, force: true }));

  it('has every file the exports map names', () => {
    const files = entries.flatMap(([, c]) => [c.import.types, c.import.default, c.require.types, c.require.default]);
    expect(files.filter((file) => !existsSync(`${root}${file}`))).toEqual([]);
  });

  // The package as an app gets it: packed, installed into an app of its own (from npm's cache where it
  // can be), and run on the oldest Node `engines` admits. There an ES module loaded by require()
  // fails (before Node 20.19), so nothing the CommonJS build loads, at once or later (a pool's queue,
  // the tool bridge's MCP server), may be one (docs/decisions.md).
  describe(`installed from its tarball, on the oldest Node engines admits (${FLOOR_VERSION}, test/runtime/node-floor)`, () => {
    let app = '';
    beforeAll(() => {
      app = mkdtempSync(join(tmpdir(), 'coderline-installed-'));
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
      // The optional peers too, for coderline/queue and coderline/otel; the versions this repository tests.
      const alongside = ['zod', 'bullmq', 'ioredis', '@opentelemetry/api', '@types/node'].map((name) => `${name}@${manifest.devDependencies[name]}`);
      execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...alongside], { cwd: app, env: nestedNpmEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
    }, 300_000);
    afterAll(() => rmSync(app, { recursive: true, force: true }));

    // The published declarations as a TypeScript app reads them: strict, every library's declarations
    // checked too, under node16 resolution (an ES module and a CommonJS one) and under a bundler's.
    it.each([
      ['node16', 'node16', ['app.mts', 'app.cts']],
      ['bundler', 'esnext', ['app.mts']],
    ])('its declarations type-check in a strict app under %s module resolution', (resolution, module, files) => {
      writeFileSync(join(app, 'app.mts'), TYPED_ESM_APP);
      writeFileSync(join(app, 'app.cts'), TYPED_CJS_APP);
      const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--module', module, '--moduleResolution', resolution, '--types', 'node', ...files], { cwd: app, encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    }, 180_000);

    // Every TypeScript block of the README, as a reader copies it into an ES module of an app: it compiles
    // under strict settings, or its first line says it is a fragment (it uses names from around it).
    it('type-checks the README\'s TypeScript blocks in a strict app, all but those that say they are fragments', () => {
      const whole = readmeTypeScriptBlocks().filter((block) => !block.startsWith('// Fragment'));
      expect(whole.some((block) => block.startsWith('// offline.ts'))).toBe(true);
      const files = whole.map((block, index) => {
        writeFileSync(join(app, `readme-${index}.mts`), block);
        return `readme-${index}.mts`;
      });
      const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'node16', '--moduleResolution', 'node16', '--types', 'node', ...files], { cwd: app, encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    }, 180_000);

    // The README's offline script, copied as a user would: type annotations stripped, run as an ES module
    // and as a CommonJS one (an `npm init -y` app), with the pinned claude first on PATH as `npx` puts it.
    it.each([
      ['an ES module', 'offline.mjs', ts.ModuleKind.ESNext],
      ['a CommonJS module', 'offline.cjs', ts.ModuleKind.CommonJS],
    ])('runs the README\'s offline script against the fake model as %s, and leaves no temp dirs', (_how, file, module) => {
      const source = readmeTypeScriptBlocks().find((block) => block.startsWith('// offline.ts'));
      expect(source).toBeDefined();
      writeFileSync(join(app, file), ts.transpileModule(source!, { compilerOptions: { module, target: ts.ScriptTarget.ES2022 } }).outputText);
      const temp = mkdtempSync(join(tmpdir(), 'coderline-readme-tmp-'));
      try {
        const env = { ...process.env, TMPDIR: temp, PATH: `${root}node_modules/.bin:${process.env.PATH}` };
        const ran = spawnSync(FLOOR_NODE, [file], { cwd: app, env, encoding: 'utf8' });
        expect(ran.stderr).toBe('');
        expect(ran.stdout).toBe('All good.\nthe CLI made 1 model call(s); the first went to /v1/messages?beta=true\n');
        expect(ran.status).toBe(0);
        // model.close() in the script's finally removed what env() made.
        expect(readdirSync(temp).filter((name) => name.startsWith('coderline-'))).toEqual([]);
      } finally {
        rmSync(temp, { recursive: true, force: true });
      }
    }, 120_000);

    // The command as the app's own bin, started by npx, running on the floor Node (its shebang finds it first).
    it('runs `npx coderline --help` on that Node', () => {
      const npx = join(dirname(process.execPath), '../lib/node_modules/npm/bin/npx-cli.js');
      const env = { ...nestedNpmEnv(), PATH: `${dirname(FLOOR_NODE)}:${process.env.PATH}` };
      const help = execFileSync(process.execPath, [npx, '--no-install', 'coderline', '--help'], { cwd: app, env, encoding: 'utf8' });
      expect(help).toContain('coderline run --cli claude|codex|copilot|pi|gemini');
      expect(help).toContain('coderline doctor');
      // Its pointer to the docs names files the installed package holds.
      const shipped = /^Docs ship with the package, in node_modules\/coderline\/: (\S+) \(this command\), (\S+), (\S+)\.$/m.exec(help);
      expect(shipped).not.toBeNull();
      expect(shipped!.slice(1).filter((file) => !existsSync(join(app, 'node_modules', 'coderline', file)))).toEqual([]);
    });

    it('is that Node', () => {
      expect(execFileSync(FLOOR_NODE, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${FLOOR_VERSION}`);
    });

    // Every entry, on that Node and on the suite's.
    const nodes = [[`Node ${FLOOR_VERSION}`, FLOOR_NODE], [`the suite's Node (${process.version})`, process.execPath]] as const;
    it.each(entries.flatMap(([subpath]) => nodes.map(([label, node]) => [subpath, label, node] as const)))('"%s" loads with import() and with require(), with the same exports, on %s', (subpath, _label, node) => {
      expect(execFileSync(node, ['-p', `require.resolve('coderline')`], { cwd: app, encoding: 'utf8' })).toContain(join(app, 'node_modules', 'coderline', 'dist'));
      const specifier = subpath === '.' ? 'coderline' : `coderline/${subpath.slice(2)}`;
      const esm = execFileSync(node, ['--input-type=module', '-e', `const m = await import('${specifier}'); console.log(Object.keys(m).sort().join(','))`], { cwd: app, encoding: 'utf8' });
      const cjs = execFileSync(node, ['-e', `console.log(Object.keys(require('${specifier}')).sort().join(','))`], { cwd: app, encoding: 'utf8' });
      expect(esm.trim()).not.toBe('');
      expect(cjs.trim()).toBe(esm.trim());
      if (subpath === '.') expect(esm.trim().split(',')).toEqual(expect.arrayContaining(['run', 'createCoder', 'createPool']));
      if (subpath === './replay') expect(esm.trim().split(',')).toEqual(expect.arrayContaining(['replay', 'replayLive', 'parseRecording']));
    });

    // The same recorded lines give the same events through either build, on the oldest Node.
    it('coderline/replay replays recorded lines to the same events under import() and require()', () => {
      const lines = JSON.stringify(readFileSync(`${root}fixtures/codex/0.171.0/reasoning.jsonl`, 'utf8').split('\n'));
      const print = `console.log(JSON.stringify(replay('codex', ${lines}, { clock: (() => { let n = 0; return () => n++; })() })))`;
      const esm = execFileSync(FLOOR_NODE, ['--input-type=module', '-e', `const { replay } = await import('coderline/replay'); ${print}`], { cwd: app, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
      const cjs = execFileSync(FLOOR_NODE, ['-e', `const { replay } = require('coderline/replay'); ${print}`], { cwd: app, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
      const events = JSON.parse(esm) as Array<{ type: string; provider: string; ts: number }>;
      expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['reasoning', 'done']));
      expect(events.map((event) => event.ts)).toEqual(events.map((_, n) => n));
      expect(cjs).toBe(esm);
    });

    it.each([
      ['import()', `const { createCoder, createPool, run, tool } = await import('coderline'); const { z } = await import('zod');`],
      ['require()', `const { createCoder, createPool, run, tool } = require('coderline'); const { z } = require('zod');`],
    ])('under %s: a pool, a run with a custom tool, a structured output, a stream and a bad option', (how, load) => {
      const program = `${load}
        ${FAKE_ADAPTER}
        const script = (text) => ({ extraEnv: { FAKE_CLI_SCRIPT: JSON.stringify([{ out: { type: 'done', text } }]) } });
        const echo = tool({ name: 'echo', description: 'd', input: z.object({ text: z.string() }), handler: ({ text }) => text });
        const pool = createPool(2);
        const pooled = await Promise.all([0, 1, 2].map((i) => pool.run(fake, 'x', { ...script(String(i)), ...(i === 0 ? { tools: [echo] } : {}) })));
        const structured = await run(fake, 'x', { ...script('{"a":1}'), outputSchema: z.object({ a: z.number() }) });
        const coder = createCoder(fake, script('streamed'));
        const streamed = [];
        for await (const event of coder.start().stream('y')) streamed.push(event.type);
        await coder.close();
        const invalid = await run(fake, 'x', { maxTurns: 'x' }).catch((error) => error.name);
        console.log(JSON.stringify({ pooled: pooled.map((result) => [result.status, result.text]), structured: structured.output, streamed, invalid }));`;
      const args = how === 'import()' ? ['--input-type=module', '-e', program] : ['-e', `(async () => { ${program} })()`];
      expect(JSON.parse(execFileSync(FLOOR_NODE, args, { cwd: app, encoding: 'utf8' }))).toEqual({
        pooled: [['success', '0'], ['success', '1'], ['success', '2']],
        structured: { a: 1 },
        streamed: ['done'],
        invalid: 'InvalidOptionsError',
      });
    });
  });

  it('has a README whose doc map links every page of docs/', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const map = readme.slice(readme.indexOf('\n## Docs\n'));
    expect(readdirSync(`${root}docs`).filter((page) => page.endsWith('.md') && !map.includes(`](docs/${page})`))).toEqual([]);
  });

  // The options' schema library (valibot) is a plain dependency, imported by name (a bundler sees and
  // dedupes it); the caller's schemas are read through Standard Schema only, so any zod works.
  it.each([
    ['import()', `const { run, tool } = await import('coderline'); const { z } = await import('zod40');`],
    ['require()', `const { run, tool } = require('coderline'); const { z } = require('zod40');`],
  ])('the bundle validates options, and reads a schema made by another zod, under %s', (how, load) => {
    const program = `${load}
      const error = await run('claude', 'x', { maxTurns: 'three' }).catch((e) => e);
      const made = tool({ name: 'read', description: 'd', input: z.object({ path: z.string() }), inputJsonSchema: z.toJSONSchema(z.object({ path: z.string().describe('where') })), handler: () => '' });
      console.log(JSON.stringify({ schema: made.inputJsonSchema, error: [error.name, error.message] }));`;
    const args = how === 'import()' ? ['--input-type=module', '-e', program] : ['-e', `(async () => { ${program} })()`];
    const out = JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' })) as { schema: unknown; error: string[] };
    expect(out.error[0]).toBe('InvalidOptionsError');
    expect(out.error[1]).toContain('maxTurns: Invalid input: expected number, received string');
    expect(out.schema).toMatchObject({ type: 'object', properties: { path: { type: 'string', description: 'where' } }, required: ['path'] });
  });

  // zod left the package: every zod 4 entry point loads its 64 locales, too slow for a cold import
  // (docs/decisions.md). Every package the build imports is a dependency, and every dependency is used.
  it('imports its dependencies and nothing else: no zod', () => {
    const { dependencies, peerDependencies } = manifest;
    const code = readdirSync(`${root}dist`).filter((file) => /\.c?js$/.test(file)).map((file) => readFileSync(`${root}dist/${file}`, 'utf8'));
    // Static imports and exports open a line in the build; dynamic ones and require() name a string alone.
    const specifiers = code.flatMap((text) => [...text.matchAll(/^(?:import|export)\b[^;'"]*?["']([^"']+)["']|\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/gm)].map((match) => match[1] ?? match[2]!));
    const packages = [...new Set(specifiers
      .filter((specifier) => !/^(node:|\.)/.test(specifier) && !builtinModules.includes(specifier) && specifier !== 'coderline')
      .map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')))];
    expect(packages).not.toContain('zod');
    // Peers are the optional integrations' libraries (coderline/queue, coderline/otel), which the app installs.
    expect(packages.sort()).toEqual([...Object.keys(dependencies), ...Object.keys(peerDependencies)].sort());
  });

  // The queue's and the tracer's libraries cost nothing to an app that does not use them.
  it('loads BullMQ, ioredis and OpenTelemetry only through coderline/queue and coderline/otel', () => {
    const program = `require(process.env.ENTRY); const found = new Set(Object.keys(require.cache).map((file) => /node_modules[\\\\/](bullmq|ioredis|@opentelemetry[\\\\/]api)[\\\\/]/.exec(file)?.[1]).filter(Boolean)); console.log(JSON.stringify([...found].sort()))`;
    const loadedBy = (entry: string) => JSON.parse(execFileSync(process.execPath, ['-e', program], { cwd: root, encoding: 'utf8', env: { ...process.env, ENTRY: entry } })) as string[];
    expect(loadedBy('coderline')).toEqual([]);
    expect(loadedBy('coderline/queue')).toEqual(['bullmq', 'ioredis']);
    expect(loadedBy('coderline/otel')).toEqual(['@opentelemetry/api']);
  });

  // Every entry imports the main one, so what `coderline` loads is one chunk (plus the few modules it
  // shares with its lazily loaded parts): an entry that reached into the code on its own path would
  // split it into 20-odd chunks again, each a module to load (tsup.config.ts).
  it.each(['index.js', 'index.cjs'])('%s loads its code in at most two chunks', (main) => {
    const loaded = new Set<string>();
    const visit = (file: string) => {
      const code = readFileSync(`${root}dist/${file}`, 'utf8');
      for (const match of code.matchAll(/^(?:import|export)\b[^;'"]*?["']\.\/([^"']+)["']|\brequire\(\s*["']\.\/([^"']+)["']\s*\)/gm)) {
        const local = match[1] ?? match[2]!;
        if (loaded.has(local)) continue;
        loaded.add(local);
        visit(local);
      }
    };
    visit(main);
    expect(loaded.size).toBeGreaterThan(0);
    expect([...loaded].filter((file) => file.startsWith('chunk-')).length, [...loaded].join(', ')).toBeLessThanOrEqual(2);
  });

  it('loads no file by a path a bundler cannot see', () => {
    const built = readdirSync(`${root}dist`).filter((file) => /\.c?js$/.test(file)).map((file) => readFileSync(`${root}dist/${file}`, 'utf8'));
    expect(built.filter((code) => /createRequire\(/.test(code))).toEqual([]);
    expect(readdirSync(`${root}dist`).filter((file) => file.includes('zod'))).toEqual([]);
  });

  // An app that imports coderline, bundled, runs from a directory with no node_modules: every file it
  // needs is in the bundle. It validates a structured output made with zod against the fake CLI.
  describe.each(['esbuild', 'webpack'] as const)('an app bundled with %s', (bundler) => {
    it('runs run() against the fake CLI', async () => {
      const dir = mkdtempSync(join(tmpdir(), `coderline-${bundler}-`));
      const ran = mkdtempSync(join(tmpdir(), `coderline-${bundler}-run-`));
      try {
        const out = join(dir, 'out');
        const entry = join(dir, 'app.mjs');
        writeFileSync(entry, bundledApp());
        // The app resolves coderline and zod as an installed app would: from its node_modules.
        mkdirSync(join(dir, 'node_modules'));
        symlinkSync(root, join(dir, 'node_modules', 'coderline'), 'dir');
        symlinkSync(`${root}node_modules/zod`, join(dir, 'node_modules', 'zod'), 'dir');
        const bundle = bundler === 'esbuild' ? await bundleWithEsbuild(entry, out) : await bundleWithWebpack(entry, out);
        // The bundle runs from a directory of its own, where nothing can be resolved at run time.
        cpSync(out, ran, { recursive: true });
        const printed = execFileSync(process.execPath, [join(ran, bundle)], { cwd: ran, encoding: 'utf8' });
        expect(JSON.parse(printed)).toEqual({ status: 'success', output: { verdict: 'ok', score: 3 }, invalid: 'InvalidOptionsError' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(ran, { recursive: true, force: true });
      }
    }, 180_000);
  });
});

/** The README's TypeScript code blocks, each as written. */
function readmeTypeScriptBlocks(): string[] {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** An adapter for the fake CLI, as a program's source: `const fake = …`. */
const FAKE_ADAPTER = `const fake = {
  name: 'fake', binary: ${JSON.stringify(FAKE_CLI)}, installHint: '', versions: { min: '1.0.0', testedMax: '1.2.0' },
  parseVersion: (output) => /fake-cli (\\d+\\.\\d+\\.\\d+)/.exec(output)?.[1],
  capabilities: { outputSchema: { level: 'best-effort', how: 'in the prompt' }, tools: { level: 'native', how: 'MCP' } }, canFork: false,
  buildInvocation: async (ctx) => ({ args: [], stdin: ctx.prompt, env: {} }),
  createTranslator: () => ({ translate: (record) => record.type === 'done' ? [{ type: 'done', status: 'success', text: record.text, raw: record }] : [] }),
};`;

/** Typed uses of the package, as an ES module; the `@ts-expect-error` fails if the types were `any`. */
const TYPED_ESM_APP = `import { createPool, run, tool, type CoderStreamEvent, type RunResult } from 'coderline';
import { replay } from 'coderline/replay';
import { startFakeModel } from 'coderline/testing';
import { z } from 'zod';
const result = await run('claude', 'x', { outputSchema: z.object({ ok: z.boolean() }) });
const ok: boolean | undefined = result.output?.ok;
// @ts-expect-error: a status is a string
const wrong: number = result.status;
const echo = tool({ name: 'echo', description: 'd', input: z.object({ text: z.string() }), handler: ({ text }) => text });
const pooled: RunResult<unknown, string> = await createPool(2).run('codex', 'x', { tools: [echo] });
const textOf = (event: CoderStreamEvent) => (event.type === 'message' ? event.text : '');
// coderline/replay's events are the events coderline's types describe.
const replayed: CoderStreamEvent[] = replay('claude', ['{"type":"result","subtype":"success","result":"hi"}'], { clock: () => 7 });
void ok; void wrong; void pooled; void textOf; void startFakeModel; void replayed;
`;

/** The same as a CommonJS module. */
const TYPED_CJS_APP = `import coderline = require('coderline');
import testing = require('coderline/testing');
import zod = require('zod');
const { z } = zod;
async function main(): Promise<void> {
  const result = await coderline.run('claude', 'x', { outputSchema: z.object({ ok: z.boolean() }) });
  const ok: boolean | undefined = result.output?.ok;
  // @ts-expect-error: a status is a string
  const wrong: number = result.status;
  const echo = coderline.tool({ name: 'echo', description: 'd', input: z.object({ text: z.string() }), handler: ({ text }) => text });
  const pooled: coderline.RunResult<unknown, string> = await coderline.createPool(2).run('codex', 'x', { tools: [echo] });
  void ok; void wrong; void pooled; void testing.startFakeModel;
}
void main;
`;

/** A small app: an adapter for the fake CLI, one structured-output run, one invalid option. */
function bundledApp(): string {
  return `import { run } from 'coderline';
import { z } from 'zod';
${FAKE_ADAPTER}
const extraEnv = { FAKE_CLI_SCRIPT: JSON.stringify([{ out: { type: 'done', text: '{"verdict":"ok","score":3}' } }]) };
// No top-level await: esbuild's default output for node is CommonJS.
(async () => {
  const result = await run(fake, 'x', { extraEnv, outputSchema: z.object({ verdict: z.enum(['ok', 'bad']), score: z.number() }) });
  const invalid = await run(fake, 'x', { extraEnv, outputSchema: { type: 'strng' } }).catch((error) => error.name);
  console.log(JSON.stringify({ status: result.status, output: result.output, invalid }));
})();
`;
}

async function bundleWithEsbuild(entry: string, outdir: string): Promise<string> {
  const { build } = await import('esbuild');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', target: 'node20', outdir, logLevel: 'silent' });
  return 'app.js';
}

async function bundleWithWebpack(entry: string, outdir: string): Promise<string> {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise<import('webpack').Stats>((resolve, reject) =>
    webpack({ mode: 'production', target: 'node20', entry, output: { path: outdir, filename: 'app.js' }, optimization: { minimize: false } }, (error, result) => (error || !result ? reject(error) : resolve(result))),
  );
  expect(stats.compilation.errors.map(String)).toEqual([]);
  return 'app.js';
}
