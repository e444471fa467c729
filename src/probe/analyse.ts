// Drift analysis of one canary run: a pure function of the CLI, what the canary expects, the raw
// stdout lines and how the process ended. The lines are translated and classified the way a live
// run does it, so the same code judges a live probe and a doctored recording.
import { isDeepStrictEqual } from 'node:util';
import { replay } from '../replay/replay.js';
import type { SessionInfo, SessionTarget } from '../core/contract/adapter.js';
import type { ResolvedOpts } from '../options.js';
import { decideOutcome, failedExit, type Outcome, type ProcessEnd } from '../core/stream/outcome.js';
import { RunTracker } from '../core/stream/run-tracker.js';
import { CoderError, type ErrorCode } from '../errors.js';
import type { CoderStreamEvent, ProviderName, ToolResultEvent, ToolUseEvent } from '../events.js';
import { builtInAdapters } from '../registry.js';
import type { RunStatus } from '../result.js';
import type { CanaryExpectation, SweepCanaryName } from './canaries.js';
import { checkCompaction, checkPlan, checkSubagent } from './meaning-checks.js';

/** How the CLI process ended, as a run saw it. */
export type ProbeExit = Pick<ProcessEnd, 'exitCode' | 'signal' | 'stderrTail'> & Partial<Pick<ProcessEnd, 'stoppedBy' | 'stallTimeoutMs'>>;

export interface CanaryReport {
  canary: SweepCanaryName;
  /** How the run classified, and the error code when it failed. */
  status: RunStatus;
  errorCode: ErrorCode | null;
  exitCode: number | null;
  signal: string | null;
  /** Record types the adapter did not recognise (progress events of kind `unknown`), each once. */
  unknownRecords: string[];
  /** Records the translator threw on. */
  untranslatable: string[];
  /** Expected events or fields that were absent or wrong. */
  missing: string[];
  /** Where the outcome or the exit code differ from what the canary expects. */
  misclassified: string[];
  drift: boolean;
}

const unique = (values: string[]) => [...new Set(values)];
const firstLine = (text: string) => text.split('\n')[0] ?? '';

function unknownRecordTypes(events: readonly CoderStreamEvent<string>[]): string[] {
  return unique(events.flatMap((event) => (event.type === 'progress' && event.kind === 'unknown' ? [event.subtype ?? '(record without a type)'] : [])));
}

/** Translators never emit non-fatal protocol errors themselves: these are records they threw on. */
function untranslatableRecords(events: readonly CoderStreamEvent<string>[]): string[] {
  return events.flatMap((event) => (event.type === 'error' && event.code === 'protocol' && !event.fatal ? [firstLine(event.message)] : []));
}

/** The shell call's tool_use and tool_result: same id, the expected name, the marker in the output. */
function checkTool(events: readonly CoderStreamEvent<string>[], tool: NonNullable<CanaryExpectation['tool']>, missing: string[], misclassified: string[]): void {
  const uses = events.filter((event): event is ToolUseEvent<string> => event.type === 'tool_use');
  const use = uses.find((event) => event.name === tool.name);
  if (!use) {
    const seen = uses.map((event) => event.name);
    missing.push(`tool_use named "${tool.name}"${seen.length ? ` (saw: ${unique(seen).join(', ')})` : ''}`);
    return;
  }
  const result = events.find((event): event is ToolResultEvent<string> => event.type === 'tool_result' && event.id === use.id);
  if (!result) {
    missing.push(`tool_result with the id of tool_use "${use.id}"`);
    return;
  }
  if (result.name !== undefined && result.name !== tool.name) missing.push(`tool_result name "${tool.name}" (got "${result.name}")`);
  const ran = JSON.stringify(result.output ?? '').includes(tool.marker);
  const wrong = [
    ...(Boolean(result.isError) !== Boolean(tool.fails) ? [result.isError ? 'is an error' : 'is not an error'] : []),
    ...(ran ? [] : [`without "${tool.marker}"`]),
  ];
  if (wrong.length) misclassified.push(`the shell command did not ${tool.fails ? 'fail' : 'run'} as expected (tool_result ${wrong.join(', ')})`);
}

/**
 * What the CLI's store shows of the canary's session (`listed`: the working directory's sessions;
 * `stored`: the session read back), against what the run did. Stores keep the model's calls, so the
 * tool is looked for by the name the model called it (`toolName`). Findings, none when all is there.
 */
export function checkStoredHistory(expected: NonNullable<CanaryExpectation['history']>, toolName: string | undefined, sessionId: string, listed: readonly SessionInfo[], stored: readonly CoderStreamEvent<string>[]): string[] {
  const missing: string[] = [];
  const info = listed.find((session) => session.id === sessionId);
  if (!info) missing.push(`session ${sessionId} in listSessions() of the working directory`);
  else if (info.title !== expected.prompt) missing.push(`the prompt as the stored session's title (got ${info.title === undefined ? 'none' : `"${info.title}"`})`);
  if (!stored.some((event) => event.type === 'message' && event.role === 'user' && event.text === expected.prompt)) missing.push('the prompt in readSession()');
  if (toolName && !stored.some((event) => event.type === 'tool_use' && event.name === toolName)) missing.push(`the "${toolName}" call in readSession()`);
  return missing;
}

/** Resume keeps the earlier run's session id, fork gets a new one. */
function checkSessionId(relation: NonNullable<CanaryExpectation['sessionId']>, sessionId: string | undefined, earlier: string | undefined, missing: string[]): void {
  if (!sessionId) return;
  if (relation === 'same' && sessionId !== earlier) missing.push(`the resumed session's id ${earlier ?? '(none)'} (got ${sessionId})`);
  if (relation === 'new' && sessionId === earlier) missing.push(`a new session id for the fork (got the parent's ${sessionId})`);
}

function checkOutcome(expected: CanaryExpectation, status: RunStatus, errorCode: ErrorCode | undefined, errorMessage: string | undefined, exit: ProbeExit, misclassified: string[]): void {
  const got = `${status}${errorCode ? ` (${errorCode})` : ''}${errorMessage ? `: ${firstLine(errorMessage)}` : ''}`;
  const want = expected.outcome.status === 'success' ? 'success' : `error (${expected.outcome.code})`;
  const matches = expected.outcome.status === 'success' ? status === 'success' : status === 'error' && errorCode === expected.outcome.code;
  if (!matches) misclassified.push(`classified as ${got}; expected ${want}`);

  // Stopped after its final record (lingering) is a success the exit code does not show.
  if (exit.stoppedBy === 'linger') return;
  const failed = failedExit(exit);
  const exitText = exit.signal !== undefined ? `signal ${exit.signal}` : `exit code ${exit.exitCode ?? 'unknown'}`;
  const wantFailedExit = expected.outcome.status === 'error' && expected.outcome.exit === 'non-zero';
  if (failed !== wantFailedExit) misclassified.push(`${exitText}; expected ${wantFailedExit ? 'a non-zero exit code' : 'exit code 0'}`);
}

/** The error the SDK raised before the CLI started (e.g. a resume of an id the SDK's store check finds in no store). */
export interface RefusedRun {
  code: ErrorCode;
  message: string;
}

function sessionOf(expected: CanaryExpectation, earlierSessionId: string | undefined): SessionTarget {
  if (expected.unknownSession) return { kind: 'resume', sessionId: expected.unknownSession };
  return expected.sessionId && earlierSessionId ? { kind: expected.sessionId === 'same' ? 'resume' : 'fork', sessionId: earlierSessionId } : { kind: 'new' };
}

/**
 * A resume of an id no store holds: the error's code and that it names the id, and that the CLI
 * ended by itself — or was never started (`refused`), printing nothing.
 */
function judgeUnknownSession(expected: CanaryExpectation, sessionId: string, outcome: Outcome, exit: ProbeExit, lines: readonly string[], refused: RefusedRun | undefined, events: readonly CoderStreamEvent<string>[]): CanaryReport {
  const missing: string[] = [];
  const misclassified: string[] = [];
  if (outcome.error && !outcome.error.message.includes(sessionId)) missing.push(`the id "${sessionId}" in the error message (got: ${firstLine(outcome.error.message)})`);
  if (refused) {
    if (lines.some((line) => line.trim() !== '')) misclassified.push('refused before the CLI started, yet the CLI printed records');
    const want = expected.outcome.status === 'error' ? expected.outcome.code : undefined;
    if (refused.code !== want) misclassified.push(`refused before the CLI started: ${refused.code}: ${firstLine(refused.message)}; expected ${want ? `error (${want})` : 'success'}`);
    return report(expected, outcome, exit, events, missing, misclassified);
  }
  if (exit.stoppedBy !== undefined && exit.stoppedBy !== 'linger') misclassified.push(`the CLI did not end by itself (stopped by the SDK: ${exit.stoppedBy})`);
  checkOutcome(expected, outcome.status, outcome.error?.code, outcome.error?.message, exit, misclassified);
  return report(expected, outcome, exit, events, missing, misclassified);
}

/**
 * Judges one canary run: what was not recognised, what is missing, what classifies unexpectedly.
 * `earlierSessionId` is the session a resume or fork canary continued from; `refused`, the SDK's
 * error when the CLI was never started.
 */
export function analyseCanary(cli: ProviderName, expected: CanaryExpectation, lines: readonly string[], exit: ProbeExit, opts: ResolvedOpts = {}, earlierSessionId?: string, refused?: RefusedRun): CanaryReport {
  const adapter = builtInAdapters[cli];
  const session = sessionOf(expected, earlierSessionId);
  const events = replay(cli, lines, { opts, session });
  const tracker = new RunTracker(adapter.usageIsCumulative);
  for (const event of events) tracker.observe(event);

  const missing: string[] = [];
  const misclassified: string[] = [];
  const resumed = session.kind === 'resume' || session.kind === 'fork' ? session.sessionId : undefined;
  const outcome: Outcome = refused
    ? { status: 'error', error: new CoderError(refused.code, refused.message, { provider: cli }), output: undefined }
    : decideOutcome(adapter, opts, tracker, { stoppedBy: undefined, stallTimeoutMs: 0, ...exit }, resumed);
  if (expected.unknownSession) return judgeUnknownSession(expected, expected.unknownSession, outcome, exit, lines, refused, events);
  // A CLI that printed nothing did not get as far as the conversation: one finding says why.
  if (!lines.some((line) => line.trim() !== '')) {
    misclassified.push(`printed no records: ${outcome.status}${outcome.error ? `: ${firstLine(outcome.error.message)}` : ''}`);
    return report(expected, outcome, exit, events, missing, misclassified);
  }
  if (!tracker.init) missing.push('init event');
  if (!tracker.sessionId) missing.push('session id (in init or done)');
  if (!tracker.done) missing.push('done event (the final record)');
  if (expected.usage && !tracker.sawUsage) missing.push('usage');
  if (expected.finalText !== undefined && tracker.text !== expected.finalText) {
    missing.push(`final text "${expected.finalText}" (got ${tracker.text ? `"${tracker.text}"` : 'none'})`);
  }
  if (expected.tool) checkTool(events, expected.tool, missing, misclassified);
  if (expected.output !== undefined && outcome.status === 'success' && !isDeepStrictEqual(outcome.output, expected.output)) {
    missing.push(`structured output ${JSON.stringify(expected.output)} (got ${JSON.stringify(outcome.output)})`);
  }
  if (expected.sessionId) checkSessionId(expected.sessionId, tracker.sessionId, earlierSessionId, missing);
  if (expected.plan) checkPlan(events, tracker.plan, expected.plan, missing, misclassified);
  if (expected.subagent) checkSubagent(events, expected.subagent, missing, misclassified);
  if (expected.compaction) checkCompaction(events, expected.compaction, missing);
  checkOutcome(expected, outcome.status, outcome.error?.code, outcome.error?.message, exit, misclassified);
  return report(expected, outcome, exit, events, missing, misclassified);
}

function report(expected: CanaryExpectation, outcome: Outcome, exit: ProbeExit, events: readonly CoderStreamEvent<string>[], missing: string[], misclassified: string[]): CanaryReport {
  const unknownRecords = unknownRecordTypes(events);
  const untranslatable = untranslatableRecords(events);
  return {
    canary: expected.canary,
    status: outcome.status,
    errorCode: outcome.error?.code ?? null,
    exitCode: exit.exitCode ?? null,
    signal: exit.signal ?? null,
    unknownRecords,
    untranslatable,
    missing,
    misclassified,
    drift: unknownRecords.length + untranslatable.length + missing.length + misclassified.length > 0,
  };
}
