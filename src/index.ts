// coderline: one API over the coding-agent CLIs, driven as subprocesses.
import type { AdapterSpec } from './core/contract/adapter.js';
import { OwnedSession } from './core/session/owned-session.js';
import { createLimiter } from './core/session/pool.js';
import { runOnce as runCore } from './core/session/run-once.js';
import { Coder, type Limiter, type OutputOf } from './core/session/session.js';
import type { ProviderName } from './events.js';
import type { OneShotOpts, SharedStartOpts } from './options.js';
import { resolveAdapter, type CliRef } from './registry.js';
import type { RunResult } from './result.js';

function coderFor<P extends string>(cli: CliRef<P>, options: SharedStartOpts | undefined, limiter?: Limiter): Coder<P> {
  return new Coder(resolveAdapter(cli), options, limiter);
}

function runOnce<P extends string, O extends OneShotOpts>(cli: CliRef<P>, prompt: string, options: O | undefined, limiter?: Limiter): Promise<RunResult<OutputOf<O>, P>> {
  return runCore(resolveAdapter(cli), prompt, options, { limiter });
}

/** The provider name a result or coder carries: an adapter's own, else any built-in one. */
type NameOf<C> = C extends AdapterSpec<infer P> ? P : ProviderName;
/**
 * `O` with no key outside `Known`: a generic's bound alone lets `{ model, modle }` through. A stray key's
 * type is never, so the compiler's error sits on that key (one signature: no overload blames the CLI name).
 */
type KnownKeysOnly<O, Known> = O & { readonly [K in Exclude<keyof O, keyof Known>]: never };

/** Runs one prompt in a new session and resolves with the result (failed runs resolve too: check `status`). */
export function run<C extends ProviderName | AdapterSpec<string>, O extends OneShotOpts>(cli: C, prompt: string, options?: KnownKeysOnly<O, OneShotOpts>): Promise<RunResult<OutputOf<O>, NameOf<C>>> {
  return runOnce(cli as unknown as CliRef<NameOf<C>>, prompt, options);
}

/** A new session on a coder of its own: `close()` it, or `await using` it, to close the coder too. */
export function start<C extends ProviderName | AdapterSpec<string>>(cli: C, options?: SharedStartOpts): OwnedSession<NameOf<C>> {
  return new OwnedSession(coderFor(cli as unknown as CliRef<NameOf<C>>, options));
}

/** A coder: shared defaults for the sessions it starts, resumes and forks. */
export function createCoder<C extends ProviderName | AdapterSpec<string>>(cli: C, options?: SharedStartOpts): Coder<NameOf<C>> {
  return coderFor(cli as unknown as CliRef<NameOf<C>>, options);
}

export interface Pool {
  run<O extends OneShotOpts>(cli: ProviderName | AdapterSpec<string>, prompt: string, options?: O): Promise<RunResult<OutputOf<O>, string>>;
  createCoder(cli: ProviderName | AdapterSpec<string>, options?: SharedStartOpts): Coder<string>;
  /** Runs executing now. */
  activeCount(): number;
  /** Runs waiting for a free slot. */
  pendingCount(): number;
}

/** At most `concurrency` runs at once across everything started through the pool. */
export function createPool(concurrency: number): Pool {
  const { limiter, activeCount, pendingCount } = createLimiter(concurrency);
  return {
    run: (cli, prompt, options) => runOnce(cli, prompt, options, limiter),
    createCoder: (cli, options) => coderFor(cli, options, limiter),
    activeCount,
    pendingCount,
  };
}

export { Coder, Session, type OutputOf } from './core/session/session.js';
export { OwnedSession } from './core/session/owned-session.js';
export type { LiveSession } from './core/live/live.js';
export { createAcpAdapter, type AcpAgentOptions } from './core/acp/adapter.js';
export type { CanUseTool, PermissionDecision, PermissionRequest } from './permission.js';
export type { PermissionModeName } from './core/options/permission-mode.js';
export type { AdapterSpec, LiveFeature, LiveSpec, CapabilityTable, FeatureSupport, Invocation, InvocationContext, SessionInfo, SessionStoreSpec, SessionTarget, StoreContext, Translator, TranslatorContext } from './core/contract/adapter.js';
export * from './errors.js';
export type * from './events.js';
export type { RunResult, RunStatus, RunStream } from './result.js';
export { featureNames, optionSchemas, reasoningEfforts } from './options.js';
export { tool } from './tool.js';
export type { Tool, ToolCallContext, ToolContent, ToolDefinition, ToolOutput } from './tool.js';
export type { FeatureName, OneShotOpts, OutputSchema, ReasoningEffort, RunOpts, SharedStartOpts } from './options.js';
export type { StandardSchemaV1 } from './schema/standard-schema.js';
