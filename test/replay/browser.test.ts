// coderline/replay runs where no Node is: its entry bundles for the browser platform with nothing
// left external (esbuild fails on any Node built-in it reaches), and that bundle, loaded in a real
// headless Chromium (the Debian package; .ci/run installs it), replays the pinned versions' recorded
// fixtures to exactly the bytes Node's replay of the same fixtures gives.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import * as replayEntry from '../../src/replay/index.js';
import { replayCase, replayCases } from './cases.js';

const root = join(import.meta.dirname, '..', '..');
const CHROMIUM = '/usr/bin/chromium';
const work = mkdtempSync(join(tmpdir(), 'coderline-replay-browser-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The entry as a page loads it: one script, every import inside, the API on a global. */
async function browserBundle() {
  return build({
    entryPoints: [join(root, 'src', 'replay', 'index.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'coderlineReplay',
    external: [],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

/** Loads `page` in headless Chromium with the flags this machine needs, a fresh profile, and returns the DOM after its scripts ran. */
async function dumpDom(page: string): Promise<string> {
  const profile = mkdtempSync(join(work, 'profile-'));
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  const { stdout } = await promisify(execFile)(CHROMIUM, [...flags, `--user-data-dir=${profile}`, '--dump-dom', pathToFileURL(page).href], { maxBuffer: 512 * 2 ** 20, timeout: 150_000 });
  return stdout;
}

describe('coderline/replay in a browser', () => {
  const cases = replayCases();

  it('bundles for the browser platform with no externals, reaching no process code', async () => {
    const bundle = await browserBundle();
    expect(bundle.errors).toEqual([]);
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs.filter((input) => /node:|src\/core\/(process|protocols)\/|src\/adapters\/[^/]+\/(index|argv|live)\.ts$/.test(input))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('src/adapters/claude/translate.ts'))).toBe(true);
  });

  it("replays every pinned fixture in headless Chromium to the bytes Node's replay gives", async () => {
    expect(cases.filter((testCase) => testCase.live).length).toBeGreaterThan(10);
    expect(new Set(cases.map((testCase) => testCase.cli))).toEqual(new Set(['claude', 'codex', 'copilot', 'pi', 'opencode']));
    const bundle = await browserBundle();
    // Inside <script>, "<" is written \u003c so no fixture text can close the element.
    const json = JSON.stringify(cases).replace(/</g, '\\u003c');
    const page = join(work, 'replay.html');
    writeFileSync(page, [
      '<!doctype html><meta charset="utf-8"><title>coderline/replay</title>',
      `<script type="application/json" id="cases">${json}</script>`,
      '<pre id="out"></pre>',
      `<script>${bundle.outputFiles[0]!.text}</script>`,
      `<script>${readFileSync(join(import.meta.dirname, 'page.js'), 'utf8')}</script>`,
    ].join('\n'));

    const dom = await dumpDom(page);
    expect(/data-error="([^"]*)"/.exec(dom)?.[1]).toBeUndefined();
    const base64 = /<pre id="out">([A-Za-z0-9+/=]*)<\/pre>/.exec(dom)?.[1];
    expect(base64, 'the page wrote its events').toBeTruthy();
    const inBrowser = JSON.parse(Buffer.from(base64!, 'base64').toString('utf8')) as string[];

    // Byte for byte, case by case: the JSON each side's events serialise to.
    const inNode = cases.map((testCase) => JSON.stringify(replayCase(replayEntry, testCase)));
    expect(inBrowser).toHaveLength(cases.length);
    expect(cases.filter((_, index) => inBrowser[index] !== inNode[index]).map((testCase) => testCase.name)).toEqual([]);
    // Not vacuous: every case gave events, stamped by its counter clock in order.
    for (const [index, json] of inBrowser.entries()) {
      const testCase = cases[index]!;
      const replayed = JSON.parse(json) as Array<{ ts: number }> | Array<Array<{ ts: number }>>;
      const flat = testCase.live ? (replayed as Array<Array<{ ts: number }>>).flat() : (replayed as Array<{ ts: number }>);
      expect({ name: testCase.name, some: flat.length > 0 }).toEqual({ name: testCase.name, some: true });
      expect(flat.map((event) => event.ts)).toEqual(flat.map((_, n) => n));
    }
  });
});
