// What reaches an app's onError: ioredis puts the command it sent on its errors (`command.args`), and
// those are values — the password of a HELLO/AUTH that was refused, a job's events or result in an XADD
// or SET — which a logger of onError's errors would print. They are taken off, on the error and its causes.

/** onError as the queue calls it: every error without the Redis command arguments it carried. */
export function reporterOf(onError: ((error: Error) => void) | undefined): (error: Error) => void {
  if (!onError) return () => {};
  return (error) => onError(withoutCommand(error));
}

function withoutCommand(error: Error): Error {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 10; at = at.cause, depth += 1) {
    if ('command' in at) delete (at as { command?: unknown }).command;
  }
  return error;
}
