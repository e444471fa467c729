// A session that owns its coder: what `start(cli, options)` returns. Closing it (or leaving an
// `await using` block) waits for its turns, then closes the coder and removes its private state.
import type { RunOpts } from '../../options.js';
import type { RunResult, RunStream } from '../../result.js';
import { Session, type Coder, type OutputOf } from './session.js';

export class OwnedSession<P extends string = string> extends Session<P> implements AsyncDisposable {
  /** Settles when the last turn asked for has: turns run in order, so then all of them have. */
  private lastTurn: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;

  constructor(private readonly owner: Coder<P>) {
    super(owner, { ...owner.options }, { kind: 'new' });
  }

  override run<O extends RunOpts>(prompt: string, options?: O): Promise<RunResult<OutputOf<O>, P>> {
    const result = super.run(prompt, options);
    this.lastTurn = result.catch(() => undefined);
    return result;
  }

  override stream<O extends RunOpts>(prompt: string, options?: O): RunStream<OutputOf<O>, P> {
    const stream = super.stream(prompt, options);
    this.lastTurn = stream.result.catch(() => undefined);
    return stream;
  }

  /** Waits for the turns already asked for, then closes the coder: the session cannot resume after. */
  close(): Promise<void> {
    this.closing ??= this.lastTurn.then(() => this.owner.close());
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
