// The house's layers (docs/architecture.md): every file of src/ belongs to one part, and a part may
// import only the parts below it that its row names. The import graph is read with the TypeScript
// compiler's own pre-processor (static and type-only imports, re-exports, import()), so a new import
// that climbs back up, or a circle between files, fails here before anyone sees it in a review.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);

/**
 * Part → the parts it may import, lowest parts first. A file's part is the first prefix that holds it
 * (`src/adapters/claude/argv.ts` → `adapters`). Keep docs/architecture.md's diagram in step.
 */
export const layers: ReadonlyArray<readonly [part: string, prefix: string, mayImport: readonly string[]]> = [
  ['errors', 'src/errors.ts', []],
  ['events', 'src/events.ts', ['errors']],
  ['schema', 'src/schema/', ['errors']],
  ['result', 'src/result.ts', ['errors', 'events']],
  ['permission', 'src/permission.ts', ['events', 'schema']],
  ['user-input', 'src/user-input.ts', ['events', 'schema']],
  ['tool', 'src/tool.ts', ['errors', 'schema']],
  ['options', 'src/options.ts', ['errors', 'events', 'schema', 'permission', 'user-input', 'tool']],
  // The core, by concern, lowest first; no folder imports one above it.
  ['core/options', 'src/core/options/', ['errors', 'options', 'schema']],
  ['core/contract', 'src/core/contract/', ['errors', 'events', 'options', 'permission', 'user-input', 'schema', 'core/options']],
  ['core/secrets', 'src/core/secrets/', ['errors', 'events', 'options', 'schema', 'core/contract']],
  ['core/process', 'src/core/process/', ['errors', 'events', 'options', 'core/contract', 'core/secrets']],
  ['core/translate', 'src/core/translate/', ['errors', 'events', 'options', 'schema', 'core/contract']],
  ['core/tools', 'src/core/tools/', ['errors', 'events', 'options', 'permission', 'user-input', 'schema', 'tool', 'core/contract', 'core/process', 'core/secrets']],
  ['core/versions', 'src/core/versions/', ['errors', 'schema', 'core/contract', 'core/process']],
  ['core/stream', 'src/core/stream/', ['errors', 'events', 'options', 'result', 'schema', 'core/options', 'core/contract', 'core/secrets', 'core/process', 'core/translate']],
  ['core/protocols', 'src/core/protocols/', ['errors', 'schema', 'core/contract', 'core/secrets', 'core/process', 'core/stream']],
  ['core/run', 'src/core/run/', ['errors', 'events', 'options', 'result', 'permission', 'user-input', 'schema', 'core/options', 'core/contract', 'core/secrets', 'core/process', 'core/translate', 'core/tools', 'core/versions', 'core/stream']],
  // The ACP client every ACP agent shares (its translator is pure: replay reaches it), and createAcpAdapter().
  ['core/acp', 'src/core/acp/', ['errors', 'events', 'options', 'permission', 'schema', 'core/options', 'core/contract', 'core/translate']],
  ['core/live', 'src/core/live/', ['errors', 'events', 'options', 'result', 'permission', 'user-input', 'schema', 'core/options', 'core/contract', 'core/secrets', 'core/process', 'core/translate', 'core/tools', 'core/versions', 'core/stream', 'core/protocols', 'core/run']],
  ['core/session', 'src/core/session/', ['errors', 'events', 'options', 'result', 'schema', 'core/contract', 'core/process', 'core/stream', 'core/run', 'core/live']],
  // Each CLI's whole truth; an adapter reads the core, never another adapter (checked below).
  ['adapters', 'src/adapters/', ['errors', 'events', 'options', 'result', 'permission', 'user-input', 'schema', 'tool', 'core/options', 'core/contract', 'core/secrets', 'core/process', 'core/translate', 'core/tools', 'core/versions', 'core/stream', 'core/protocols', 'core/acp', 'core/session']],
  ['registry', 'src/registry.ts', ['errors', 'events', 'core/contract', 'adapters']],
  // coderline/replay: the adapters' pure faces only (translation.ts and what it reaches; checked below).
  ['replay', 'src/replay/', ['errors', 'events', 'options', 'schema', 'core/contract', 'core/translate', 'core/acp', 'adapters']],
  ['index', 'src/index.ts', ['errors', 'events', 'options', 'result', 'permission', 'user-input', 'schema', 'tool', 'core/options', 'core/contract', 'core/acp', 'core/session', 'core/live', 'registry']],
  ['subpaths', 'src/subpaths/', ['adapters', 'index']],
  // Fake model servers for tests and demos (coderline/testing); the adapter contract names their steps.
  ['testing', 'src/testing/', ['errors', 'events', 'options', 'core/contract', 'index']],
  // Optional integrations: their own subpaths; nothing below imports them.
  ['otel', 'src/otel/', ['errors', 'events', 'options', 'result', 'core/run', 'index']],
  ['ai-sdk', 'src/ai-sdk/', ['errors', 'events', 'options', 'result', 'schema', 'tool', 'core/contract', 'index']],
  ['queue', 'src/queue/', ['errors', 'events', 'options', 'result', 'schema', 'core/options', 'core/contract', 'core/secrets', 'core/tools', 'core/run', 'core/session', 'index', 'registry']],
  ['probe', 'src/probe/', ['errors', 'events', 'options', 'result', 'schema', 'testing', 'core/contract', 'core/stream', 'core/process', 'core/session', 'registry', 'replay', 'index']],
  ['cli', 'src/cli/', ['errors', 'events', 'options', 'result', 'permission', 'schema', 'tool', 'core/options', 'core/contract', 'core/secrets', 'core/process', 'core/translate', 'core/versions', 'core/stream', 'core/session', 'registry', 'replay', 'probe', 'index', 'testing']],
];

const partOf = (file: string): string | undefined => layers.find(([, prefix]) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix))?.[0];

function sourceFiles(): string[] {
  return readdirSync(new URL('src', root), { recursive: true, encoding: 'utf8' })
    .map((file) => posix.join('src', file.split('\\').join('/')))
    .filter((file) => /\.(ts|mts|cts)$/.test(file) && !file.endsWith('.d.ts'));
}

/** Every relative import of `file` (type-only ones, re-exports and import() too), resolved to a file of src/. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(new URL(file, root), 'utf8'), true, true);
  return importedFiles
    .map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const base = posix.normalize(posix.join(posix.dirname(file), specifier));
      const target = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
      if (!target) throw new Error(`${file}: ${specifier} names no source file`);
      return target;
    });
}

const files = sourceFiles();
const graph = new Map(files.map((file) => [file, importsOf(file, new Set(files))]));

describe('architecture: which part may import which', () => {
  it('places every source file in a part', () => {
    expect(files.filter((file) => partOf(file) === undefined)).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it('lets each part import only the parts its row names', () => {
    const broken: string[] = [];
    for (const [file, targets] of graph) {
      const from = partOf(file)!;
      const allowed = layers.find(([part]) => part === from)![2];
      for (const target of targets) {
        const to = partOf(target)!;
        if (to !== from && !allowed.includes(to)) broken.push(`${file} → ${target} (${from} may not import ${to})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only parts below a part in its row, so the parts cannot import each other in a circle', () => {
    const order = layers.map(([part]) => part);
    const upward = layers.flatMap(([part, , mayImport]) => mayImport.filter((other) => order.indexOf(other) >= order.indexOf(part)).map((other) => `${part} → ${other}`));
    expect(upward).toEqual([]);
  });

  it('keeps each adapter to its own folder: no adapter imports another', () => {
    const cliOf = (file: string) => /^src\/adapters\/([^/]+)\//.exec(file)?.[1];
    const crossing = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => cliOf(file) && cliOf(target) && cliOf(file) !== cliOf(target)).map((target) => `${file} → ${target}`),
    );
    expect(crossing).toEqual([]);
  });

  it('keeps coderline/replay off the process face: no Node built-in, no spawn or file, whatever it reaches', () => {
    const reached = new Set<string>();
    const walk = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const target of graph.get(file) ?? []) walk(target);
    };
    walk('src/replay/index.ts');
    // What an adapter's index, the registry or the public entry would drag in: argv, spawn, fs, os.
    const processFace = [...reached].filter((file) => /^src\/(core\/(process|protocols|run|live|session|stream|tools|versions)\/|registry\.ts$|index\.ts$)/.test(file) || /^src\/adapters\/[^/]+\/(index|argv|live|store)\.ts$/.test(file));
    const builtins = [...reached].flatMap((file) =>
      ts.preProcessFile(readFileSync(new URL(file, root), 'utf8'), true, true).importedFiles
        .map((reference) => reference.fileName)
        .filter((specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier))
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(reached).toContain('src/adapters/pi/translate.ts');
    expect(processFace).toEqual([]);
    expect(builtins).toEqual([]);
  });

  it('has no circle of files inside a part either', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open') circles.push([...path.slice(path.indexOf(target)), target].join(' → '));
        else if (!state.has(target)) visit(target);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('has the examples import only the public entries, as an app would', () => {
    const configs = ['tsup.config.ts', 'tsup.replay.config.ts'].map((config) => readFileSync(new URL(config, root), 'utf8')).join('\n');
    const entries = new Set(configs.match(/'src\/[^']+\.ts'/g)!.map((quoted) => quoted.slice(1, -1)));
    expect(entries).toContain('src/index.ts');
    expect(entries).toContain('src/replay/index.ts');
    const examples = readdirSync(new URL('examples', root)).filter((file) => file.endsWith('.ts')).map((file) => `examples/${file}`);
    const inner = examples.flatMap((file) => importsOf(file, new Set(files)).filter((target) => !entries.has(target)).map((target) => `${file} → ${target}`));
    expect(examples.length).toBeGreaterThan(0);
    expect(inner).toEqual([]);
  });

  it('reads type-only imports and import() too, so the check cannot be dodged by either', () => {
    const { importedFiles } = ts.preProcessFile("import type { A } from './a.js';\nexport { B } from './b.js';\nconst c = await import('./c.js');", true, true);
    expect(importedFiles.map((reference) => reference.fileName)).toEqual(['./a.js', './b.js', './c.js']);
  });
});
