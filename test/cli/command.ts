// Runs the `coderline` command as a user does: a separate process (through tsx, so no build is
// needed), its stdout, stderr and exit code captured.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SharedStartOpts } from '../../src/index.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
const main = join(repoRoot, 'src', 'cli', 'main.ts');
// By absolute URL, so a script can run in any working directory.
const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  cwd?: string;
}

/** Starts a TypeScript script with ARGS; `done` settles when it exits. */
export function startScript(script: string, args: readonly string[], options: CommandOptions = {}): { child: ChildProcess; done: Promise<CommandResult>; stderrSoFar(): string } {
  const child = spawn(process.execPath, ['--import', tsxLoader, script, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end(options.input ?? '');
  const done = new Promise<CommandResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, stderrSoFar: () => stderr };
}

/** Starts `coderline ARGS`. */
export function startCoderline(args: readonly string[], options: CommandOptions = {}) {
  return startScript(main, args, options);
}

export function coderline(args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
  return startCoderline(args, options).done;
}

/**
 * What a user pointing the command at a fake model server would set up: the environment of the
 * sandbox (minus the variables it unsets) and the executable and model as flags.
 */
export function sandboxInvocation(opts: SharedStartOpts): { env: NodeJS.ProcessEnv; flags: string[] } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.extraEnv };
  for (const name of opts.unsetEnv ?? []) delete env[name];
  const flags: string[] = [];
  if (opts.executablePath) flags.push('--executable-path', opts.executablePath);
  if (opts.model) flags.push('--model', opts.model);
  if (opts.workingDirectory) flags.push('--cwd', opts.workingDirectory);
  return { env, flags };
}

