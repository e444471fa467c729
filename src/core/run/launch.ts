// What every start of a CLI does before it spawns, one-shot or live: the adapter's command line, the
// environment, the check that both can reach a process, and the version probe.
import { statSync } from 'node:fs';
import { InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import type { AdapterSpec, Invocation, InvocationContext, SessionTarget } from '../contract/adapter.js';
import { checkAttachments } from '../options/attachments.js';
import { inheritedEnv, withUpperLayers } from '../process/env.js';
import { outputJsonSchemaOf } from '../options/output-schema.js';
import { executableFor, unpassableToProcess } from '../process/spawn.js';
import type { TempDir } from '../process/temp.js';
import type { ToolBridge } from '../tools/tool-bridge.js';
import { checkVersionedSupport } from './validate.js';
import { checkVersion } from '../versions/version.js';

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

/**
 * Spawning in a missing directory fails with ENOENT, which would read as a missing CLI. A synchronous
 * stat: an awaited one went through libuv's thread pool and back, 13–59 ms of wall time before the
 * spawn on a loaded machine (docs/performance.md, "Cold first run: where the rest goes").
 */
export function checkWorkingDirectory(adapter: Pick<AdapterSpec, 'name'>, cwd: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    // not searchable (EACCES), a loop of links …: not a directory we can start in
  }
  if (!isDirectory) {
    throw new InvalidOptionsError([`the working directory ${cwd} does not exist or is not a directory`], adapter.name);
  }
}

export async function prepareLaunch<I extends Omit<Invocation, 'stdin'>>(request: LaunchRequest<I>): Promise<Launch<I>> {
  const { adapter, opts, cwd, temp, toolBridge } = request;
  const outputJsonSchema = outputJsonSchemaOf(opts);
  // Before the version probe: a missing attachment is the caller's mistake, named before anything spawns.
  await checkAttachments(opts, cwd, adapter.name);
  // The version comes first: which argv and which features a run may use can depend on it. A binary
  // probed before, in this process or an earlier one, answers from the cache (version-cache.ts).
  const executable = executableFor(opts.executablePath ?? adapter.binary);
  // The inherited layer once for both environments: the probe's, and the CLI's with the adapter's settings.
  const inherited = inheritedEnv({ inherited: process.env, inherit: opts.inheritEnv, cli: adapter });
  // Before the probe too: it gets the caller's extraEnv, and Node's own error would quote the value.
  const unpassableExtra = unpassableToProcess([], opts.extraEnv ?? {});
  if (unpassableExtra.length > 0) throw new InvalidOptionsError(unpassableExtra, adapter.name);
  const probeEnv = withUpperLayers(inherited, { extra: opts.extraEnv, unset: opts.unsetEnv });
  const { version, warning } = adapter.versionProbe === false ? { version: undefined, warning: undefined } : await checkVersion(adapter, executable, probeEnv, cwd);
  checkVersionedSupport(adapter, opts, request.session, version);
  const invocation = await request.build({
    prompt: request.prompt,
    opts,
    session: request.session,
    cwd,
    cliVersion: version,
    writeTempFile: (name, content) => temp.writeFile(name, content),
    coderStateDir: request.coderStateDir,
    outputJsonSchema,
    ...(toolBridge ? { toolBridge } : {}),
  });
  const env = withUpperLayers(inherited, { adapter: invocation.env, extra: opts.extraEnv, unset: opts.unsetEnv });
  const unpassable = unpassableToProcess(invocation.args, env);
  if (unpassable.length > 0) throw new InvalidOptionsError(unpassable, adapter.name);
  return { invocation, env, executable, version, warning };
}
