// Starting a CLI with node:child_process. execa did this before and was measured at ~14 MB of RSS
// and ~70 ms to load on the first run, for what is here a spawn, a write and an exit status
// (docs/decisions.md).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CliNotFoundError, CoderError } from '../../errors.js';
import type { AdapterSpec } from '../contract/adapter.js';
import { ABORT_STEPS, isGroupAlive, STOP_STEPS, terminateGroup, trackGroup, untrackGroup } from './process-group.js';

export interface ChildExit {
  exitCode: number | undefined;
  signal: NodeJS.Signals | undefined;
  /** The process could not be started (ENOENT, EACCES, …). */
  spawnError?: NodeJS.ErrnoException;
}

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
}

export type PipedChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** Which argument it is, by the flag's name only: a value on argv can be a secret (`--api-key=sk-…`). */
function argumentName(args: readonly string[], i: number): string {
  const arg = args[i]!;
  if (arg.startsWith('-')) return ` (${arg.split(/[=\0]/)[0]!.slice(0, 40)})`;
  const previous = args[i - 1];
  return previous?.startsWith('-') && !previous.includes('=') ? ` (the value after ${previous.slice(0, 40)})` : '';
}

/**
 * What cannot reach a process as given: a NUL byte in an argument or in the environment (the OS would
 * end the string there), and a variable name that is empty or holds `=` (Node writes `NAME=VALUE`, and
 * the child reads the name up to the first `=`: `NODE_OPTIONS=--require=x` would be NODE_OPTIONS).
 * Values are not quoted: argv and environment values are often secrets, and so is what follows a `=`.
 */
export function unpassableToProcess(args: readonly string[], env: Record<string, string>): string[] {
  const issues = args.flatMap((arg, i) => (arg.includes('\0') ? [`command-line argument ${i + 1}${argumentName(args, i)} contains a NUL byte`] : []));
  for (const [name, value] of Object.entries(env)) {
    if (name.includes('\0') || value.includes('\0')) issues.push(`environment variable ${name.replaceAll('\0', '\\0')} contains a NUL byte`);
    else if (name === '') issues.push('environment variable name "" is empty');
    else if (name.includes('=')) issues.push(`environment variable name ${name.slice(0, name.indexOf('='))}=… holds "=": the CLI would read it as ${name.slice(0, name.indexOf('=')) || 'another name'}`);
  }
  return issues;
}

/**
 * The executable to start: a path with a directory part is taken from the host's current directory,
 * not from the CLI's working directory (where the CLI is started); a bare name is looked up on PATH.
 */
export function executableFor(path: string): string {
  return path.includes('/') ? resolve(path) : path;
}

/** Why a CLI could not be started: missing or not executable is a CliNotFoundError. */
export function startError(adapter: Pick<AdapterSpec, 'name' | 'installHint'>, executable: string, error: NodeJS.ErrnoException): CoderError {
  if (error.code === 'ENOENT' || error.code === 'EACCES') return new CliNotFoundError(adapter.name, executable, adapter.installHint);
  return new CoderError('exit', `${adapter.name}: could not start "${executable}": ${error.message}`, { provider: adapter.name });
}

/** Settles once the process has exited and its pipes have closed, or could not be started. */
function whenClosed(child: PipedChild | ChildProcessByStdio<null, Readable, Readable>): Promise<ChildExit> {
  return new Promise((resolve) => {
    // Stays attached: an 'error' without a listener would crash the host. After a successful start
    // (a failed kill, say) 'close' still follows and tells the exit.
    child.on('error', (error) => {
      if (child.pid === undefined) resolve({ exitCode: undefined, signal: undefined, spawnError: error });
    });
    child.once('close', (code, signal) => resolve({ exitCode: code ?? undefined, signal: signal ?? undefined }));
  });
}

/**
 * The CLI as the leader of a process group of its own (so the whole tree below it can be stopped),
 * `stdin` written and closed at once (or, when undefined, left open for a live session to write to),
 * stdout and stderr left to the caller as streams.
 */
export function spawnCli(executable: string, args: string[], stdin: string | undefined, options: SpawnOptions): { child: PipedChild; closed: Promise<ChildExit> } {
  const child = spawn(executable, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  // A CLI that exits without reading its prompt fails the write with EPIPE: its exit tells the story.
  child.stdin.on('error', () => {});
  if (stdin !== undefined) child.stdin.end(stdin);
  return { child, closed: whenClosed(child) };
}

/** How long a short command's pipes may stay open after it exited (held by something it left behind). */
const PIPE_GRACE_MS = 1_000;

/**
 * Runs a short command (`--version`) to its end, stdin closed, and returns what it printed. It leads
 * a process group of its own: whatever it leaves behind is stopped when it exits, and a timeout stops
 * the whole group, so neither a hung command nor a leftover holding its pipes can hang the caller.
 */
export async function runToEnd(
  executable: string,
  args: string[],
  options: SpawnOptions & { timeoutMs: number },
): Promise<ChildExit & { output: string; timedOut: boolean }> {
  const child = spawn(executable, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid;
  if (pid !== undefined) trackGroup(pid);
  let output = '';
  const collect = (text: string) => {
    // A version line is short: whatever a broken binary prints beyond this is of no use.
    if (output.length < 65_536) output += text;
  };
  child.stdout.setEncoding('utf8').on('data', collect);
  child.stderr.setEncoding('utf8').on('data', collect);

  const giveUpOnPipes = () => {
    child.stdout.destroy();
    child.stderr.destroy();
  };
  let timedOut = false;
  let stopping: Promise<void> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    if (pid !== undefined) stopping = terminateGroup(pid, ABORT_STEPS);
    giveUpOnPipes();
  }, options.timeoutMs);
  // 'exit' comes before 'close', so the look at what it left is under way by the time the pipes close.
  let leftoversChecked: Promise<void> | undefined;
  child.once('exit', () => {
    setTimeout(giveUpOnPipes, PIPE_GRACE_MS).unref();
    leftoversChecked = (async () => {
      if (pid !== undefined && !stopping && (await isGroupAlive(pid)) && !stopping) stopping = terminateGroup(pid, STOP_STEPS);
    })();
  });
  try {
    const exit = await whenClosed(child);
    return { ...exit, output, timedOut };
  } finally {
    clearTimeout(timer);
    // Tracked until its leftovers are gone, so a host that exits meanwhile still stops them.
    await leftoversChecked;
    await stopping;
    if (pid !== undefined) untrackGroup(pid);
  }
}
