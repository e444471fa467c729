// One prompt on a coder of its own, closed after: run() and pool.run() (a new session in a private
// state dir), and a queue worker's job (which may resume or fork a session kept in a shared dir).
import { optionFields, splitOneShotOptions, type OneShotOpts, type RunOpts, type SharedStartOpts } from '../../options.js';
import type { RunResult } from '../../result.js';
import type { AdapterSpec, SessionTarget } from '../contract/adapter.js';
import { Coder, type Limiter, type OutputOf, type Session } from './session.js';
import { parseOptions } from '../run/validate.js';
import { checkSessionId } from '../../schema/ids.js';

/** A new session, or one named by id to resume or fork. */
export type RunTarget = Exclude<SessionTarget, { kind: 'continue' }>;

export interface RunPlacement {
  limiter?: Limiter;
  /** The session to run in (default: a new one). */
  session?: RunTarget;
  /** The coder's state dir (the config dir of `isolation: 'strict'`): kept after the run, unlike a private one. */
  stateDir?: string;
}

async function sessionOf<P extends string>(coder: Coder<P>, target: RunTarget): Promise<Session<P>> {
  switch (target.kind) {
    case 'new':
      return coder.start();
    case 'resume':
      return coder.resume(target.sessionId);
    case 'fork':
      return coder.resume(target.sessionId).fork();
  }
}

export async function runOnce<P extends string, O extends OneShotOpts>(adapter: AdapterSpec<P>, prompt: string, options: O | undefined, placement: RunPlacement = {}): Promise<RunResult<OutputOf<O>, P>> {
  const target = placement.session ?? { kind: 'new' };
  // Named as a queue job names it, before the coder makes anything.
  if (target.kind !== 'new') checkSessionId(target.sessionId, `session.${target.kind}`, adapter.name);
  const { start, run } = splitOneShotOptions(parseOptions(optionFields.oneShot, options, `${adapter.name} run options`));
  const coder = new Coder(adapter, start as SharedStartOpts, placement.limiter, placement.stateDir);
  try {
    const session = await sessionOf(coder, target);
    return (await session.run(prompt, run as RunOpts)) as RunResult<OutputOf<O>, P>;
  } finally {
    await coder.close();
  }
}
