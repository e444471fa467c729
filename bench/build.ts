// Everything a bench process runs is plain JS built here first: coderline bundled exactly as the
// package builds it (tsup, same options, ESM), and the bench programs themselves. Running them
// through a TypeScript loader instead would add the loader to every process's start and RSS.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build as tsup } from 'tsup';
import { bundleOptions } from '../tsup.config.js';

export const benchDir = fileURLToPath(new URL('.', import.meta.url));
export const rootDir = fileURLToPath(new URL('..', import.meta.url));
export const outDir = `${benchDir}.out/`;
export const fakeCli = `${benchDir}fake-cli.mjs`;
/** The built package entry (same bundle as dist/index.js, built here so dist/ is left alone). */
export const coderlineEntry = `${outDir}coderline/index.js`;

/** coderline as of an earlier commit, for before/after side by side (BENCH_BASELINE=<rev>). */
export const baselineEntry = `${outDir}baseline/index.js`;
/** The retention program built against the baseline's translators. */
export const baselineRetention = `${outDir}baseline/retention.mjs`;

/** The bench programs that run in processes of their own. */
export const programs = ['consume', 'latency', 'live', 'pool', 'translate', 'retention'] as const;
export const programPath = (name: (typeof programs)[number]) => `${outDir}${name}.mjs`;

/**
 * The vendor SDKs are the bench's own dependencies, installed from bench/package-lock.json, and so is
 * tmp-promise, which revisions before the watchdog commit import (BENCH_BASELINE builds them).
 */
function installVendorSdks(): void {
  if (['@anthropic-ai/claude-agent-sdk', '@openai/codex-sdk', 'tmp-promise'].every((name) => existsSync(`${benchDir}node_modules/${name}`))) return;
  console.error('installing the vendor SDKs into bench/node_modules …');
  // Optional dependencies are the vendors' own CLI binaries: the bench points both SDKs at the fake.
  execFileSync('npm', ['ci', '--omit=optional', '--no-audit', '--no-fund'], { cwd: benchDir, stdio: 'inherit' });
}

/** coderline bundled as the package builds it (ESM, code splitting), from `srcDir` into `out`; `subpaths` as entries too. */
async function buildCoderline(srcDir: string, out: string, subpaths: Record<string, string> = {}): Promise<void> {
  await tsup({
    ...bundleOptions,
    config: false,
    entry: { index: `${srcDir}/index.ts`, ...Object.fromEntries(Object.entries(subpaths).map(([name, path]) => [name, `${srcDir}/${path}`])) },
    format: ['esm'],
    outDir: out,
    // Revisions before 54967b8 spawn through execa, now only a devDependency (which tsup would bundle);
    // revisions before the watchdog import tmp-promise (from bench/node_modules).
    external: ['execa', 'tmp-promise'],
    splitting: true,
    clean: true,
    silent: true,
  });
  // Revisions from fix 14 until zod became a plain import load zod itself here (no __ZOD_RUNTIME__ defined).
}

/** Bench programs as single `.mjs` files, each run in a process of its own. */
function buildPrograms(entry: Record<string, string>, out: string) {
  return tsup({
    config: false,
    entry,
    format: ['esm'],
    outDir: out,
    outExtension: () => ({ js: '.mjs' }),
    // The AI SDK loads as installed (its bundle requires Node built-ins an ES module bundle cannot).
    external: ['ai'],
    target: 'node20',
    splitting: false,
    silent: true,
  });
}

/** `vendorSdks`: install them (only the sections that race them need them). */
export async function buildBench({ vendorSdks }: { vendorSdks: boolean }): Promise<void> {
  if (vendorSdks) installVendorSdks();
  await buildCoderline(`${rootDir}src`, `${outDir}coderline`, { 'ai-sdk': 'ai-sdk/index.ts' });
  await buildPrograms(Object.fromEntries(programs.map((name) => [name, `${benchDir}${name}.ts`])), outDir);
}

/** Builds `src/` as of `rev` the same way, so a fix is measured against its parent in the same run. */
export async function buildBaseline(rev: string): Promise<void> {
  if (!/^[\w./~^-]+$/.test(rev)) throw new Error(`BENCH_BASELINE is not a git revision: ${rev}`);
  const source = `${outDir}baseline-src/`;
  rmSync(source, { recursive: true, force: true });
  mkdirSync(source, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${rev} src | tar -x -C "${source}"`], { cwd: rootDir, stdio: 'inherit' });
  await buildCoderline(`${source}src`, `${outDir}baseline`);
  mkdirSync(`${source}bench`);
  for (const file of ['retention.ts']) copyFileSync(`${benchDir}${file}`, `${source}bench/${file}`);
  await buildPrograms({ retention: `${source}bench/retention.ts` }, `${outDir}baseline`);
}
