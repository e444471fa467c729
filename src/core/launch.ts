// What every start of a CLI does before it spawns, one-shot or live: the adapter's command line, the
// environment, the check that both can reach a process, and the version probe.
import { stat } from 'node:fs/promises';
import { InvalidOptionsError } from '../errors.js';
import type { ResolvedOpts } from '../options.js';
import type { AdapterSpec, Invocation, InvocationContext, SessionTarget } from './adapter.js';
import { buildEnv } from './env.js';
import { toJsonSchema } from './output-schema.js';
import { unpassableToProcess } from './spawn.js';
import type { TempDir } from './temp.js';
import type { ToolBridge } from './tool-bridge.js';
import { checkVersion } from './version.js';

export interface LaunchRequest<I extends Omit<Invocation, 'stdin'>> {
  adapter: AdapterSpec;
  build(ctx: InvocationContext): Promise<I> | I;
  prompt: string;
  opts: ResolvedOpts;
  session: SessionTarget;
  cwd: string;
  temp: TempDir;
  coderStateDir(): Promise<string>;
  toolBridge: ToolBridge | undefined;
}

export interface Launch<I> {
  invocation: I;
  env: Record<string, string>;
  executable: string;
  version: string | undefined;
  /** The version is unknown or newer than tested. */
  warning: string | undefined;
}

/** Spawning in a missing directory fails with ENOENT, which would read as a missing CLI. */
export async function checkWorkingDirectory(adapter: Pick<AdapterSpec, 'name'>, cwd: string): Promise<void> {
  if (!(await stat(cwd).then((info) => info.isDirectory(), () => false))) {
    throw new InvalidOptionsError([`the working directory ${cwd} does not exist or is not a directory`], adapter.name);
  }
}

export async function prepareLaunch<I extends Omit<Invocation, 'stdin'>>(request: LaunchRequest<I>): Promise<Launch<I>> {
  const { adapter, opts, cwd, temp, toolBridge } = request;
  const invocation = await request.build({
    prompt: request.prompt,
    opts,
    session: request.session,
    cwd,
    writeTempFile: (name, content) => temp.writeFile(name, content),
    coderStateDir: request.coderStateDir,
    outputJsonSchema: opts.outputSchema ? toJsonSchema(opts.outputSchema) : undefined,
    ...(toolBridge ? { toolBridge } : {}),
  });
  const env = buildEnv({ inherited: process.env, adapter: invocation.env, extra: opts.extraEnv, unset: opts.unsetEnv });
  const unpassable = unpassableToProcess(invocation.args, env);
  if (unpassable.length > 0) throw new InvalidOptionsError(unpassable, adapter.name);
  const executable = opts.executablePath ?? adapter.binary;
  const { version, warning } = await checkVersion(adapter, executable, env, cwd);
  return { invocation, env, executable, version, warning };
}
