// A host that ends mid-run, for each real CLI: SIGKILLed, nothing of it runs, and its watchdog stops
// the CLI's process group and the tool command the CLI started; ended by SIGTERM or SIGINT, its exit
// hooks do. Either way no coderline temp entry is left: the host runs with a TMPDIR of its own, and
// only entries named coderline-* count (the CLIs' own, e.g. Codex's sandbox mount targets, are theirs).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderName, SharedStartOpts } from '../../src/index.js';
import { builtInAdapters } from '../../src/registry.js';
import { fakeApiOf, startFakeModel, type FakeEnvOptions } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { isGroupAlive, processTable } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const host = join(import.meta.dirname, '..', 'support', 'host-killed-mid-run.ts');

/** What makes each CLI's run hold a coderline temp entry while it runs. */
const withTempEntry: Record<ProviderName, { env?: FakeEnvOptions; opts?: SharedStartOpts; tool?: boolean }> = {
  claude: { env: { isolation: 'strict' } }, // the coder's state dir (CLAUDE_CONFIG_DIR)
  codex: { opts: { systemPrompt: 'Run what you are asked to.' } }, // instructions file
  copilot: { opts: { permissionPolicy: { mode: 'bypass' } } }, // the usage file
  pi: { tool: true }, // the tool bridge's extension
  // The run's own GEMINI_CLI_HOME; bypass, since an allow rule still asks about a redirection (0.61.0).
  gemini: { opts: { permissionPolicy: { mode: 'bypass' } } },
  opencode: { env: { isolation: 'strict' } }, // the coder's state dir (its XDG dirs)
};

/**
 * The host's CLI — its child leading a process group of its own that is not the watchdog (tsx's
 * esbuild service is a child too, in the host's group) — and every process below it, now.
 */
function cliTree(hostPid: number): { cli: number; tree: number[] } {
  const rows = processTable();
  const cli = rows.find((row) => row.ppid === hostPid && row.pgid === row.pid && !row.args.includes('CODERLINE_WATCHDOG'));
  if (!cli) throw new Error(`the host ${hostPid} has no CLI child`);
  const tree = [cli.pid];
  for (let i = 0; i < tree.length; i += 1) tree.push(...rows.filter((row) => row.ppid === tree[i]).map((row) => row.pid));
  return { cli: cli.pid, tree };
}

const coderlineEntries = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('coderline-'));

// Every built-in CLI: the table above is a Record of them all, so a new CLI cannot be left out.
describe.each(Object.keys(withTempEntry) as ProviderName[])('%s, when the host ends mid-run', (cli) => {
  it.each(['SIGKILL', 'SIGTERM', 'SIGINT'] as const)('%s: the CLI, its tool command and the temp entries are gone', async (signal) => {
    const adapter = builtInAdapters[cli];
    const work = mkdtempSync(join(tmpdir(), 'coderline-test-host-exit-'));
    const hostTemp = join(work, 'tmp');
    const marker = join(work, 'tool-started');
    mkdirSync(hostTemp);
    const model = await startFakeModel({
      api: fakeApiOf[cli],
      script: [{ toolCalls: [adapter.probe!.shellCall(`echo started > ${marker}; sleep 3600`)] }, { kind: 'hang', after: 'nothing' }],
    });
    cleanupAfterTest(() => model.close(), () => rmSync(work, { recursive: true, force: true }));
    const setup = withTempEntry[cli];
    const opts = withPinnedRuntime(cli, { ...(await model.env(cli, setup.env)), ...adapter.probe!.toolOpts, ...setup.opts, workingDirectory: work });

    const child = spawn(process.execPath, ['--import', 'tsx', host, cli], {
      env: { ...process.env, TMPDIR: hostTemp, HOST_OPTS: JSON.stringify(opts), ...(setup.tool && { HOST_TOOL: '1' }) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', (code, sig) => resolve(sig ?? code)));
    // A test that fails before its kill still ends its host (whose watchdog then ends the CLI).
    cleanupAfterTest(() => child.kill('SIGKILL'));
    // The tool command runs: the CLI and everything below it (Codex's sandbox, pi's own-session bash).
    await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').trim() === 'started', 90_000);
    const { cli: cliPid, tree } = cliTree(child.pid!);
    expect(tree.length).toBeGreaterThan(1);
    expect(isGroupAlive(cliPid)).toBe(true);
    expect(coderlineEntries(hostTemp).length).toBeGreaterThan(0);

    child.kill(signal);
    expect(await exited).toBe(signal);
    await waitFor(() => {
      const live = processTable().filter((entry) => !entry.zombie);
      return !live.some((entry) => tree.includes(entry.pid) || entry.pgid === cliPid) && coderlineEntries(hostTemp).length === 0;
    }, 20_000);
  });
});
