// Runs canaries against a CLI, each with its own fake model, working directory and config dirs (all
// removed afterwards), and hands the recorded lines to the analysis. `coderline doctor --probe` runs
// them against the CLI on PATH; the compatibility sweep against one installed version at a time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoder, isCoderError, run } from '../index.js';
import type { AdapterSpec } from '../core/contract/adapter.js';
import type { ProviderName } from '../events.js';
import type { OneShotOpts, SharedStartOpts } from '../options.js';
import type { RunResult } from '../result.js';
import { builtInAdapters } from '../registry.js';
import { withoutControls } from '../schema/terminal-text.js';
import { fakeApiOf, startFakeModel } from '../testing/index.js';
import { analyseCanary, checkStoredHistory, type CanaryReport, type ProbeExit, type RefusedRun } from './analyse.js';
import { canariesFor, type Canary } from './canaries.js';

/** A canary that prints nothing for this long is stopped (e.g. a CLI that now waits for approval). */
export const CANARY_STALL_MS = 60_000;

/** Which CLI the canaries run: the adapter's binary on PATH unless an executable and PATH are given. */
export interface CanaryTarget {
  cli: ProviderName;
  /** The adapter to run with (the sweep widens its version range to reach versions outside it). */
  adapter: AdapterSpec;
  executablePath?: string;
  /** PATH for the CLI, e.g. with the Node it needs first. */
  path?: string;
}

/** One canary run: its report, and what the analysis was given, so a recording can be replayed. */
export interface CanaryRun {
  report: CanaryReport;
  /** Whether the report comes from the analysis of the lines (false: the canary could not run). */
  analysed: boolean;
  lines: string[];
  exit: ProbeExit;
  /** The session a resume or fork canary continued from. */
  earlierSessionId: string | undefined;
  /** What `--version` said, when the run got that far. */
  cliVersion: string | undefined;
  /** The SDK's error when it refused the run before the CLI started. */
  refused?: RefusedRun;
}

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

interface Turn {
  result?: RunResult<unknown, string>;
  earlierSessionId?: string;
  /** The SDK's error when it refused the run before the CLI started. */
  refused?: RefusedRun;
}

/** The resume of an id no store holds: the CLI's error, or the SDK's before the CLI starts. */
async function resumeUnknown(target: CanaryTarget, sessionId: string, canary: Canary, opts: OneShotOpts, watch: Pick<OneShotOpts, 'onRawLine' | 'onEvent'>): Promise<Turn> {
  const coder = createCoder(target.adapter, opts as SharedStartOpts);
  try {
    return { result: await coder.resume(sessionId).run(canary.prompt, watch) };
  } catch (error) {
    if (isCoderError(error)) return { refused: { code: error.code, message: error.message } };
    throw error;
  } finally {
    await coder.close();
  }
}

/** Runs the canary's prompt: one-shot, a resume of an unknown id, or after a first run it resumes or forks. */
async function runTurn(target: CanaryTarget, canary: Canary, opts: OneShotOpts, watch: Pick<OneShotOpts, 'onRawLine' | 'onEvent'>): Promise<Turn> {
  if (canary.expect.unknownSession) return resumeUnknown(target, canary.expect.unknownSession, canary, opts, watch);
  if (!canary.before) return { result: await run(target.adapter, canary.prompt, { ...opts, ...watch }) };
  const coder = createCoder(target.adapter, opts as SharedStartOpts);
  try {
    const first = coder.start();
    const earlier = await first.run(canary.before.prompt);
    if (earlier.status !== 'success' || !earlier.sessionId) throw new Error(`the first run, to ${canary.before.then}, ended ${earlier.status}${earlier.error ? `: ${earlier.error.message}` : ''}`);
    const session = canary.before.then === 'resume' ? coder.resume(earlier.sessionId) : await first.fork();
    return { result: await session.run(canary.prompt, watch), earlierSessionId: earlier.sessionId };
  } finally {
    await coder.close();
  }
}

/** The history check of a canary that asks for one: what the CLI's store holds after the run. */
async function withStoredHistory(target: CanaryTarget, canary: Canary, opts: SharedStartOpts, sessionId: string | undefined, report: CanaryReport): Promise<CanaryReport> {
  const expected = canary.expect.history;
  if (!expected || !sessionId) return report;
  const coder = createCoder(target.adapter, opts);
  let findings: string[];
  try {
    findings = checkStoredHistory(expected, canary.expect.tool && target.adapter.probe?.shellCall('').name, sessionId, await coder.listSessions(), await coder.readSession(sessionId));
  } catch (error) {
    findings = [`a readable session store: ${error instanceof Error ? firstLineOf(error.message) : String(error)}`];
  } finally {
    await coder.close();
  }
  return findings.length ? { ...report, missing: [...report.missing, ...findings], drift: true } : report;
}

const firstLineOf = (text: string) => text.split('\n')[0] ?? '';

/** Whether a process or process group with this id exists (EPERM: it does, someone else's). */
function exists(id: number): boolean {
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A refused resume leaves nothing running: neither the CLI nor anything in its process group. */
function withNothingLeft(canary: Canary, pid: number | undefined, report: CanaryReport): CanaryReport {
  if (!canary.expect.unknownSession || pid === undefined || !(exists(pid) || exists(-pid))) return report;
  return { ...report, misclassified: [...report.misclassified, `the CLI (pid ${pid}) or its process group still runs after the run ended`], drift: true };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The canary's options on top of the fake model's: an object option both set (an environment, a
 * config) gets the canary's keys added to the fake model's, which point the CLI at the fake.
 */
export function withCanaryOpts(base: OneShotOpts, canary: OneShotOpts): OneShotOpts {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(canary)) {
    const under = merged[key];
    merged[key] = isRecord(under) && isRecord(value) ? { ...under, ...value } : value;
  }
  return merged as OneShotOpts;
}

export async function runCanary(target: CanaryTarget, canary: Canary): Promise<CanaryRun> {
  const fake = await startFakeModel({ api: fakeApiOf[target.cli], script: canary.script });
  const workingDirectory = await mkdtemp(join(tmpdir(), 'coderline-probe-'));
  const lines: string[] = [];
  const stderr: string[] = [];
  let exit: ProbeExit = { exitCode: undefined, signal: undefined, stderrTail: '' };
  try {
    const envOpts = await fake.env(target.cli, canary.retries === undefined ? {} : { retries: canary.retries });
    const extraEnv = target.path === undefined ? envOpts.extraEnv : { ...envOpts.extraEnv, PATH: target.path };
    const opts = {
      ...withCanaryOpts({ ...envOpts, ...(extraEnv ? { extraEnv } : {}) }, canary.opts),
      ...(target.executablePath ? { executablePath: target.executablePath } : {}),
      workingDirectory,
      stallTimeoutMs: CANARY_STALL_MS,
    };
    const { result, earlierSessionId, refused } = await runTurn(target, canary, opts, {
      onRawLine: (line) => lines.push(line),
      onEvent: (event) => {
        if (event.type === 'stderr') stderr.push(event.line);
      },
    });
    if (result) exit = { exitCode: result.exitCode, signal: result.signal, stderrTail: stderr.slice(-40).map(withoutControls).join('\n'), stoppedBy: stoppedBy(result), stallTimeoutMs: CANARY_STALL_MS };
    const analysed = analyseCanary(target.cli, canary.expect, lines, exit, canary.opts, earlierSessionId, refused);
    const report = result ? withNothingLeft(canary, result.pid, await withStoredHistory(target, canary, opts, result.sessionId, analysed)) : analysed;
    return { report, analysed: true, lines, exit, earlierSessionId, cliVersion: result?.cliVersion, ...(refused ? { refused } : {}) };
  } catch (error) {
    return { report: couldNotRun(canary, error), analysed: false, lines, exit, earlierSessionId: undefined, cliVersion: undefined };
  } finally {
    await fake.close();
    await rm(workingDirectory, { recursive: true, force: true });
  }
}

/** The canary conversation with the CLI on PATH, one canary after the other; undefined without probe data. */
export async function probeCli(cli: ProviderName): Promise<CanaryReport[] | undefined> {
  const adapter = builtInAdapters[cli];
  const canaries = canariesFor(adapter);
  if (!canaries) return undefined;
  const reports: CanaryReport[] = [];
  for (const canary of canaries) reports.push((await runCanary({ cli, adapter }, canary)).report);
  return reports;
}
