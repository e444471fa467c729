// `coderline run` and `coderline record`: one prompt through one CLI. Progress on stderr, the
// answer (or JSON) on stdout, the outcome in the exit code; Ctrl-C aborts the agent cleanly.
import { text } from 'node:stream/consumers';
import { createCoder, type CoderStreamEvent, type ProviderName, type RunResult, type Session } from '../index.js';
import { splitOneShotOptions } from '../options.js';
import { exitCodeForResult } from './exit-codes.js';
import { withFakeModel } from './fake-model.js';
import { ProgressReporter, summaryLine } from './progress.js';
import { runRedactor } from '../core/secrets/redact.js';
import { builtInAdapters } from '../registry.js';
import { formatRecording, RECORDING_FORMAT, shareableOptions, writeRecording } from './recording.js';
import type { RunPlan } from './run-args.js';
import { readNamedFile, UsageError } from './usage-error.js';

async function readPrompt(plan: RunPlan): Promise<string> {
  if (plan.prompt !== '-') return plan.prompt;
  if (process.stdin.isTTY) throw new UsageError('`-` reads the prompt from stdin, but stdin is a terminal', 'Pipe the prompt in, e.g. git diff | coderline run --cli claude -');
  const prompt = await text(process.stdin);
  if (prompt.trim() === '') throw new UsageError('the prompt read from stdin is empty', 'Pipe a prompt in, or pass it as an argument.');
  return prompt;
}

async function readSchema(file: string): Promise<Record<string, unknown>> {
  const content = await readNamedFile(file, `--schema file "${file}"`, 'Pass the path of a JSON Schema file.');
  try {
    const schema = JSON.parse(content) as unknown;
    if (schema && typeof schema === 'object' && !Array.isArray(schema)) return schema as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UsageError(`--schema file "${file}" is not a JSON object`, 'It must hold a JSON Schema, e.g. {"type":"object","properties":{…}}.');
}

/** The RunResult as JSON: the error as plain fields, absent values as null so `jq` sees every key. */
function resultJson(result: RunResult<unknown, string>): string {
  const { error, ...rest } = result;
  return JSON.stringify({
    ...rest,
    output: rest.output ?? null,
    sessionId: rest.sessionId ?? null,
    exitCode: rest.exitCode ?? null,
    signal: rest.signal ?? null,
    cliVersion: rest.cliVersion ?? null,
    error: error ? { name: error.name, code: error.code, message: error.message } : null,
  });
}

function answerText(result: RunResult<unknown, string>, structured: boolean): string {
  if (structured && result.output !== undefined) return `${JSON.stringify(result.output, null, 2)}\n`;
  return result.text === '' || result.text.endsWith('\n') ? result.text : `${result.text}\n`;
}

async function openSession(plan: RunPlan, startOptions: Record<string, unknown>): Promise<{ session: Session<ProviderName>; close(): Promise<void> }> {
  const coder = createCoder(plan.cli, startOptions);
  const target = plan.session;
  const session = target.kind === 'resume'
    ? coder.resume(target.sessionId)
    : target.kind === 'fork'
      ? await coder.resume(target.sessionId).fork()
      : target.kind === 'continue' ? coder.resumeLatest() : coder.start();
  return { session, close: () => coder.close() };
}

export async function runCommand(plan: RunPlan): Promise<number> {
  const prompt = await readPrompt(plan);
  const given: Record<string, unknown> = { ...plan.options };
  if (plan.schemaFile !== undefined) given.outputSchema = await readSchema(plan.schemaFile);
  const fake = plan.fakeModelFile === undefined ? undefined : await withFakeModel(plan.cli, plan.fakeModelFile, given);
  try {
    return await runWith(plan, prompt, fake?.options ?? given);
  } finally {
    await fake?.close();
  }
}

async function runWith(plan: RunPlan, prompt: string, options: Record<string, unknown>): Promise<number> {

  // Ctrl-C and SIGTERM (a cancelled CI job) abort the run; a second one leaves at once.
  const abort = new AbortController();
  let timedOut = false;
  const onSignal = () => {
    if (abort.signal.aborted) process.exit(130);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const timer = plan.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, plan.timeoutMs);

  const progress = plan.quiet ? undefined : new ProgressReporter(process.stderr, { label: plan.cli, verbose: plan.verbose });
  const rawLines: string[] = [];
  const onEvent = (event: CoderStreamEvent<string>) => {
    progress?.event(event);
    if (plan.output === 'jsonl') process.stdout.write(`${JSON.stringify(event)}\n`);
  };

  const { start: startOptions, run: givenRunOptions } = splitOneShotOptions(options);
  const runOptions = {
    ...givenRunOptions,
    signal: abort.signal,
    onEvent,
    ...(plan.recordTo === undefined ? {} : { onRawLine: (line: string) => rawLines.push(line) }),
  };

  let result: RunResult<unknown, string>;
  let close: (() => Promise<void>) | undefined;
  try {
    const opened = await openSession(plan, startOptions);
    close = opened.close;
    result = await opened.session.run(prompt, runOptions);
  } catch (error) {
    progress?.stop();
    throw error;
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await close?.();
  }

  if (plan.recordTo !== undefined) {
    const header = {
      coderline: 'recording',
      format: RECORDING_FORMAT,
      cli: plan.cli,
      cliVersion: result.cliVersion ?? null,
      session: plan.session,
      opts: shareableOptions(options),
      status: result.status,
      exitCode: result.exitCode ?? null,
    } as const;
    // The raw lines came as printed (onRawLine): the secrets the run was given, and the CLI's credentials, come out here.
    const redactor = runRedactor(options, builtInAdapters[plan.cli], { ...process.env, ...(options.extraEnv as Record<string, string> | undefined) });
    await writeRecording(plan.recordTo, formatRecording(header, rawLines, redactor));
  }

  if (timedOut && result.status === 'cancelled') {
    progress?.line(`timed out after ${(plan.timeoutMs ?? 0) / 1000}s`);
  }
  progress?.finish(summaryLine(result));
  if (plan.output === 'json') process.stdout.write(`${resultJson(result)}\n`);
  else if (plan.output === 'text') process.stdout.write(answerText(result, plan.schemaFile !== undefined));
  return exitCodeForResult(result, timedOut);
}
