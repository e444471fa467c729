// Where coderline runs and what it needs from its host: the operating system (refused up front where
// a CLI could not be stopped), the Node version package.json promises, and where a relative
// executablePath is taken from.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_PLATFORMS } from '../../src/core/process/platform.js';
import { compareVersions } from '../../src/core/versions/version.js';
import { createCoder, PlatformNotSupportedError, run } from '../../src/index.js';
import { done, FAKE_CLI, fakeAdapter, script } from '../support/fake-adapter.js';

const fake = fakeAdapter();
const root = new URL('../../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string }; os?: string[]};
const tempDir = () => mkdtempSync(join(tmpdir(), 'coderline-test-'));

/** Runs `body` while process.platform says `platform`. */
async function asIf<T>(platform: string, body: () => Promise<T>): Promise<T> {
  const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { ...real, value: platform });
  try {
    return await body();
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
}

describe('platforms', () => {
  it('on Windows, run() and createCoder() throw PlatformNotSupportedError before anything spawns', async () => {
    const marker = join(tempDir(), 'spawned');
    await asIf('win32', async () => {
      const attempt = run(fake, 'x', script([done()], { FAKE_CLI_MARKER: marker }));
      await expect(attempt).rejects.toBeInstanceOf(PlatformNotSupportedError);
      await expect(attempt).rejects.toMatchObject({ code: 'platform_not_supported', platform: 'win32', message: expect.stringContaining('WSL') });
      expect(() => createCoder(fake)).toThrow(PlatformNotSupportedError);
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('package.json `os` lists exactly the platforms the code accepts', () => {
    expect(packageJson.os).toEqual([...SUPPORTED_PLATFORMS]);
  });
});

describe('Node version', () => {
  const floor = (range: string) => /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim())?.[1];
  const ours = floor(packageJson.engines.node);

  // Node APIs newer than 20.0 and the release that added each; the source must not use one that the
  // engines floor does not have.
  const newerApis: Array<[RegExp, string]> = [
    [/AbortSignal\.any\(/, '20.3.0'],
    [/Symbol\.(?:async)?[dD]ispose/, '20.4.0'],
    [/import\.meta\.(?:dirname|filename)/, '20.11.0'],
    [/styleText\(/, '20.12.0'],
  ];

  it('engines.node is no older than the newest Node API the shipped source uses', () => {
    const sources = readdirSync(new URL('src', root), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => ({ file, text: readFileSync(new URL(`src/${file}`, root), 'utf8') }));
    expect(ours, 'engines.node is a plain ">=" floor').toBeDefined();
    const tooNew = newerApis.flatMap(([api, since]) =>
      sources.filter(({ text }) => api.test(text) && compareVersions(ours!, since) < 0).map(({ file }) => `${file} uses ${api.source} (Node ${since})`),
    );
    expect(tooNew).toEqual([]);
  });
});

describe('executablePath', () => {
  it('a relative path is taken from process.cwd(), not from the working directory', async () => {
    const cli = join(tempDir(), 'relative-cli');
    symlinkSync(FAKE_CLI, cli);
    // Deep enough that the same relative path from here cannot climb back to the same file.
    const workingDirectory = join(tempDir(), 'a', 'b', 'c', 'd', 'e', 'f');
    mkdirSync(workingDirectory, { recursive: true });
    const inDirs = fakeAdapter({ capabilities: { ...fake.capabilities, workingDirectory: { level: 'native', how: 'cwd' } } });
    const executablePath = relative(process.cwd(), cli);
    expect(executablePath.startsWith('/')).toBe(false);
    const result = await run(inDirs, 'x', { ...script([done('ran')]), executablePath, workingDirectory });
    expect(result).toMatchObject({ status: 'success', text: 'ran' });
  });
});
