// The drift analysis on real recordings (fixtures/<cli>/<testedMax>/): unchanged they show no drift;
// doctored in memory here — a record type renamed, a field the translator needs dropped, a changed
// exit code — the analysis names what drifted. The doctored lines are never written to disk.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderName } from '../../src/events.js';
import { analyseCanary, type ProbeExit } from '../../src/probe/analyse.js';
import { canariesFor, type CanaryExpectation, type CanaryName } from '../../src/probe/canaries.js';
import { probeDetails, probeExitCode, type ProbeEntry } from '../../src/cli/doctor-probe.js';
import { builtInAdapters } from '../../src/registry.js';
import type { ResolvedOpts } from '../../src/options.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures');

interface Recording {
  file: string;
  /** What the recorded conversation said, in place of the canary's own text and marker. */
  finalText?: string;
  marker?: string;
  opts?: ResolvedOpts;
}

/** The recordings closest to each canary: a plain answer, one shell call, a 401. */
const recordings: Record<ProviderName, Record<CanaryName, Recording>> = {
  claude: {
    text: { file: 'text', finalText: 'Hello from the fake model.' },
    tool: { file: 'tool_bash', finalText: 'The command printed coderline-tool-ran.', marker: 'coderline-tool-ran', opts: { permissionPolicy: { allow: ['Bash'] } } },
    auth_error: { file: 'error_401' },
  },
  codex: {
    text: { file: 'text', finalText: 'Hello from the fake model.' },
    tool: { file: 'shell-workspace-write', finalText: 'Ran it.', marker: 'hi' },
    auth_error: { file: 'error-401' },
  },
  copilot: {
    text: { file: 'text', finalText: 'Hello from the fake model.' },
    tool: { file: 'bash-tool', finalText: 'The command printed hi.', marker: 'hi', opts: { permissionPolicy: { mode: 'bypass' } } },
    auth_error: { file: 'auth-401' },
  },
  pi: {
    text: { file: 'text', finalText: 'Hello from the fake model.' },
    tool: { file: 'tool-bash', finalText: 'The command printed hello-from-bash.', marker: 'hello-from-bash' },
    auth_error: { file: 'error-401' },
  },
  gemini: {
    text: { file: 'text', finalText: 'Hello from the fake model.' },
    tool: { file: 'shell-tool', finalText: 'The command printed hi.', marker: 'hi', opts: { permissionPolicy: { mode: 'bypass' } } },
    auth_error: { file: 'auth-401' },
  },
  opencode: {
    text: { file: 'text', finalText: 'Hello from the fake model.' },
    tool: { file: 'tool-bash', finalText: 'The command printed coderline-tool-ran.', marker: 'coderline-tool-ran' },
    auth_error: { file: 'error-401' },
  },
};

const clis = Object.keys(recordings) as ProviderName[];
const canaryNames: CanaryName[] = ['text', 'tool', 'auth_error'];

function fixtureDir(cli: ProviderName): string {
  return join(root, cli, builtInAdapters[cli].versions.testedMax);
}

function recordedLines(cli: ProviderName, canary: CanaryName): string[] {
  return readFileSync(join(fixtureDir(cli), `${recordings[cli][canary].file}.jsonl`), 'utf8').split('\n').filter((line) => line.trim() !== '');
}

/** The recorder's exit code; pi's recorder keeps no meta file, and pi exits 0 in JSON mode even on a 401. */
function recordedExit(cli: ProviderName, canary: CanaryName): ProbeExit {
  const meta = join(fixtureDir(cli), `${recordings[cli][canary].file}.meta.json`);
  const exitCode = existsSync(meta) ? (JSON.parse(readFileSync(meta, 'utf8')) as { exitCode: number }).exitCode : 0;
  return { exitCode, signal: undefined, stderrTail: '' };
}

/** The canary's expectation with the recorded conversation's text and marker. */
function expectation(cli: ProviderName, canary: CanaryName): CanaryExpectation {
  const expected = canariesFor(builtInAdapters[cli])!.find((each) => each.expect.canary === canary)!.expect;
  const { finalText, marker } = recordings[cli][canary];
  return { ...expected, ...(finalText ? { finalText } : {}), ...(expected.tool && marker ? { tool: { ...expected.tool, marker } } : {}) };
}

function analyse(cli: ProviderName, canary: CanaryName, lines = recordedLines(cli, canary), exit = recordedExit(cli, canary)) {
  return analyseCanary(cli, expectation(cli, canary), lines, exit, recordings[cli][canary].opts);
}

/** Rewrites each record (parsed, changed, serialised again) where `change` returns true. */
function doctor(lines: string[], change: (record: Record<string, unknown>) => boolean): string[] {
  let changed = 0;
  const out = lines.map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (!change(record)) return line;
    changed += 1;
    return JSON.stringify(record);
  });
  expect(changed, 'the doctoring changed no record').toBeGreaterThan(0);
  return out;
}

const renameType = (from: string, to: string) => (record: Record<string, unknown>) => record.type === from && ((record.type = to), true);
const dropKey = (key: string, type?: string) => (record: Record<string, unknown>) => (type === undefined || record.type === type) && key in record && delete record[key];

function entryOf(cli: ProviderName, canaries: ReturnType<typeof analyse>[]): ProbeEntry {
  return { cli, version: '1.0.0', supported: 'x', state: 'tested', detail: null, probed: true, canaries, drift: canaries.some((canary) => canary.drift) };
}

describe('drift analysis of recorded runs', () => {
  it.each(clis.flatMap((cli) => canaryNames.map((canary) => [cli, canary] as const)))('%s %s as recorded: no drift', (cli, canary) => {
    const report = analyse(cli, canary);
    expect(report).toMatchObject({ unknownRecords: [], untranslatable: [], missing: [], misclassified: [], drift: false });
    expect(report.status).toBe(canary === 'auth_error' ? 'error' : 'success');
  });

  // One record type per CLI that the translator needs, renamed as a new CLI version might.
  it.each([
    ['claude', 'text', 'result', 'outcome', 'done event (the final record)'],
    ['codex', 'tool', 'turn.completed', 'turn.finished', 'done event (the final record)'],
    ['copilot', 'tool', 'tool.execution_complete', 'tool.execution_finished', 'tool_result with the id of tool_use "call_1"'],
    ['pi', 'text', 'session', 'session_header', 'init event'],
    ['opencode', 'text', 'step_finish', 'step_end', 'done event (the final record)'],
  ] as const)('%s %s with "%s" renamed "%s": the record type is named, and what went missing', (cli, canary, from, to, missing) => {
    const report = analyse(cli, canary, doctor(recordedLines(cli, canary), renameType(from, to)));
    expect(report.drift).toBe(true);
    expect(report.unknownRecords).toContain(to);
    expect(report.missing).toContain(missing);
    const entry = entryOf(cli, [report]);
    expect(probeDetails(entry)).toContain(`${canary}: record type not recognised: ${to}`);
    expect(probeExitCode([entry])).toBe(6);
  });

  // The session id, dropped from the records that carry it.
  it.each([
    ['claude', dropKey('session_id')],
    ['codex', dropKey('thread_id', 'thread.started')],
    ['copilot', dropKey('sessionId', 'result')],
    ['pi', dropKey('id', 'session')],
    ['opencode', dropKey('sessionID')],
  ] as const)('%s text without its session id: the missing field is named', (cli, drop) => {
    const report = analyse(cli, 'text', doctor(recordedLines(cli, 'text'), drop));
    expect(report.drift).toBe(true);
    expect(report.missing).toContain('session id (in init or done)');
    expect(probeDetails(entryOf(cli, [report]))).toContain('text: missing session id (in init or done)');
  });

  it('a changed exit code is drift even when the records still classify the run', () => {
    // pi 1.6 exits 0 after a failed model call; exiting 1 would be new exit semantics.
    const piAuth = analyse('pi', 'auth_error', undefined, { exitCode: 1, signal: undefined, stderrTail: '' });
    expect(piAuth).toMatchObject({ status: 'error', errorCode: 'auth', misclassified: ['exit code 1; expected exit code 0'], drift: true });

    const claudeText = analyse('claude', 'text', undefined, { exitCode: 1, signal: undefined, stderrTail: '' });
    expect(claudeText.misclassified).toEqual([expect.stringMatching(/^classified as error \(exit\).*; expected success$/), 'exit code 1; expected exit code 0']);
  });

  it('a 401 that classifies as another error is drift', () => {
    // The error text moved out of the record the translator reads: the code can no longer be told.
    const lines = doctor(recordedLines('codex', 'auth_error'), (record) => {
      if (record.type !== 'turn.failed') return false;
      record.error = { message: 'something went wrong' };
      return true;
    });
    const report = analyse('codex', 'auth_error', lines);
    expect(report.drift).toBe(true);
    expect(report.misclassified[0]).toMatch(/^classified as error \((?!auth)\w+\).*; expected error \(auth\)$/);
  });

  it('a CLI that printed nothing gets one finding that says why', () => {
    const report = analyse('pi', 'text', [], { exitCode: 1, signal: undefined, stderrTail: 'SyntaxError: … does not provide an export named enableCompileCache' });
    expect(report.missing).toEqual([]);
    expect(report.misclassified).toEqual([expect.stringMatching(/^printed no records: error: .*Node >= 22\.19/)]);
  });

  it('the tool canary fails when the command did not run', () => {
    const report = analyseCanary('claude', { ...expectation('claude', 'tool'), tool: { name: 'Bash', marker: 'not-in-the-output' } }, recordedLines('claude', 'tool'), recordedExit('claude', 'tool'), recordings.claude.tool.opts);
    expect(report.misclassified).toEqual(['the shell command did not run as expected (tool_result without "not-in-the-output")']);
  });
});
