// Runs the canaries against the CLI on PATH, each with its own fake model, working directory and
// config dirs (all removed afterwards), and hands the recorded lines to the analysis.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCoderError, run } from '../index.js';
import type { ProviderName } from '../events.js';
import type { RunResult } from '../result.js';
import { builtInAdapters } from '../registry.js';
import { fakeApiOf, startFakeModel } from '../testing/index.js';
import { analyseCanary, type CanaryReport, type ProbeExit } from './analyse.js';
import { canariesFor, type Canary } from './canaries.js';

/** A canary that prints nothing for this long is stopped (e.g. a CLI that now waits for approval). */
export const CANARY_STALL_MS = 60_000;

/** What the SDK did to the process, read back from the result (a success with a signal lingered). */
function stoppedBy(result: RunResult<unknown, string>): ProbeExit['stoppedBy'] {
  if (result.status === 'stalled') return 'stall';
  if (result.status === 'cancelled') return 'abort';
  return result.status === 'success' && result.signal !== undefined ? 'linger' : undefined;
}

function couldNotRun(canary: Canary, error: unknown): CanaryReport {
  return {
    canary: canary.expect.canary,
    status: 'error',
    errorCode: isCoderError(error) ? error.code : null,
    exitCode: null,
    signal: null,
    unknownRecords: [],
    untranslatable: [],
    missing: [],
    misclassified: [`the canary could not run: ${error instanceof Error ? error.message : String(error)}`],
    drift: true,
  };
}

async function runCanary(cli: ProviderName, canary: Canary): Promise<CanaryReport> {
  const fake = await startFakeModel({ api: fakeApiOf[cli], script: canary.script });
  const workingDirectory = await mkdtemp(join(tmpdir(), 'coderline-probe-'));
  const lines: string[] = [];
  const stderr: string[] = [];
  try {
    const envOpts = await fake.env(cli, canary.retries === undefined ? {} : { retries: canary.retries });
    const opts = { ...envOpts, ...canary.opts, workingDirectory, stallTimeoutMs: CANARY_STALL_MS };
    const result = await run(builtInAdapters[cli], canary.prompt, {
      ...opts,
      onRawLine: (line) => lines.push(line),
      onEvent: (event) => {
        if (event.type === 'stderr') stderr.push(event.line);
      },
    });
    const exit: ProbeExit = {
      exitCode: result.exitCode,
      signal: result.signal,
      stderrTail: stderr.slice(-40).join('\n'),
      stoppedBy: stoppedBy(result),
      stallTimeoutMs: CANARY_STALL_MS,
    };
    return analyseCanary(cli, canary.expect, lines, exit, opts);
  } catch (error) {
    return couldNotRun(canary, error);
  } finally {
    await fake.close();
    await rm(workingDirectory, { recursive: true, force: true });
  }
}

/** The canary conversation with one CLI, one canary after the other; undefined without probe data. */
export async function probeCli(cli: ProviderName): Promise<CanaryReport[] | undefined> {
  const canaries = canariesFor(builtInAdapters[cli]);
  if (!canaries) return undefined;
  const reports: CanaryReport[] = [];
  for (const canary of canaries) reports.push(await runCanary(cli, canary));
  return reports;
}
