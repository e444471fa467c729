// The live minimum of each CLI as the compatibility sweep's live canaries measured it
// (compat/results.json; LiveSpec.minVersion must follow): a version below it is refused by open() before the live process starts, the minimum
// itself gets past that check. The binary is a shell script that logs how it was started and
// answers `--version` like the CLI, so the versions need no install.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveMinVersion, readResults } from '../../scripts/compat/results.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import type { ProviderName } from '../../src/events.js';
import { CliVersionError, createCoder, FeatureNotInVersionError } from '../../src/index.js';
import { builtInAdapters } from '../../src/registry.js';
import { cleanupAfterTest } from '../support/cleanup.js';

/** Polls `read` until `condition` holds. */
async function waitFor(condition: () => boolean, timeoutMs: number, read: () => Promise<unknown>): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (await read(); !condition(); await read()) {
    if (Date.now() > until) throw new Error('timed out waiting for the stand-in');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What each CLI prints for `--version`. */
const versionOutput: Record<ProviderName, (version: string) => string> = {
  claude: (version) => `${version} (Claude Code)`,
  codex: (version) => `codex-cli ${version}`,
  copilot: (version) => `GitHub Copilot CLI ${version}.`,
  pi: (version) => version,
  gemini: (version) => version,
  opencode: (version) => version,
};

/** The release number just below `version`. */
function versionBelow(version: string): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return patch > 0 ? `${major}.${minor}.${patch - 1}` : `${major}.${minor - 1}.999`;
}

/**
 * A stand-in CLI answering `--version` with `version`; started otherwise it exits at once, or with
 * `stayOpen` keeps what it reads on stdin. `starts()` reads the argument lists it was started with,
 * `received()` its stdin.
 */
async function standIn(adapter: AdapterSpec, version: string, stayOpen = false): Promise<{ executablePath: string; workDir: string; starts(): Promise<string[]>; received(): Promise<string> }> {
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-live-version-'));
  cleanupAfterTest(() => rm(workDir, { recursive: true, force: true }));
  const log = join(workDir, 'starts.log');
  const executablePath = join(workDir, adapter.binary);
  const output = versionOutput[adapter.name as ProviderName](version);
  expect(adapter.parseVersion(output)).toBe(version);
  const stdin = join(workDir, 'stdin.log');
  await writeFile(executablePath, `#!/bin/sh\necho "$*" >> '${log}'\nif [ "$1" = --version ]; then echo '${output}'; exit 0; fi\n${stayOpen ? `exec cat > '${stdin}'` : 'exit 0'}\n`, { mode: 0o755 });
  const starts = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
  const received = () => readFile(stdin, 'utf8').catch(() => '');
  return { executablePath, workDir, starts, received };
}

async function openWith(adapter: AdapterSpec, executablePath: string, workDir: string): Promise<unknown> {
  const coder = createCoder(adapter);
  cleanupAfterTest(() => coder.close());
  try {
    const live = await coder.open({ executablePath, workingDirectory: workDir });
    await live.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

const liveAdapters = (Object.values(builtInAdapters) as AdapterSpec[]).filter((adapter) => adapter.live);

describe.each(liveAdapters.map((adapter) => [adapter.name, adapter] as const))('%s live sessions and the CLI version', (_name, adapter) => {
  // What the sweep measured (compat/results.json), not what the adapter says.
  const min = liveMinVersion(readResults()[adapter.name as ProviderName] ?? []) ?? 'unmeasured';

  it(`a version below the live minimum fails with CliVersionError naming the minimum, before the live process starts`, async () => {
    const below = versionBelow(min);
    const { executablePath, workDir, starts } = await standIn(adapter, below);
    const error = await openWith(adapter, executablePath, workDir);
    expect(error).toBeInstanceOf(CliVersionError);
    expect((error as CliVersionError).version).toBe(below);
    expect((error as CliVersionError).message).toContain(min);
    expect(await starts()).toEqual(['--version']);
  });

  it('the live minimum itself gets past the version check: the live process is started', async () => {
    const { executablePath, workDir, starts } = await standIn(adapter, min);
    const error = await openWith(adapter, executablePath, workDir);
    expect(error).not.toBeInstanceOf(CliVersionError);
    expect((await starts()).length).toBe(2);
  });
});

describe('a live control newer than the live minimum', () => {
  it('claude 2.1.197 (no command_lifecycle records, so a steered turn would never end): steer() fails with FeatureNotInVersionError naming 2.1.218, nothing is written', async () => {
    const adapter = builtInAdapters.claude as AdapterSpec;
    const { executablePath, workDir, received } = await standIn(adapter, '2.1.197', true);
    const coder = createCoder(adapter);
    cleanupAfterTest(() => coder.close());
    const live = await coder.open({ executablePath, workingDirectory: workDir });
    cleanupAfterTest(() => live.close());
    let error: unknown;
    try {
      live.steer('mind the tests');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(FeatureNotInVersionError);
    expect(error).toMatchObject({ option: 'steer', version: '2.1.197', since: '2.1.218' });
    // A turn sent afterwards arrives first: nothing of the refused steer went before it.
    const turn = live.send('after the refusal');
    let stdin = '';
    await waitFor(() => stdin.includes('after the refusal'), 60_000, async () => (stdin = await received()));
    expect(stdin).not.toContain('mind the tests');
    process.kill(live.pid!, 'SIGKILL');
    expect((await turn.result).status).toBe('error');
  });
});
