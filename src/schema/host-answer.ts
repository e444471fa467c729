// A question put to one of the host's callbacks (canUseTool, onUserInput): the callback's answer, or a
// rejection when it throws, when `timeoutMs` passes, or when `withdrawn` aborts (the CLI took the question
// back, the turn or the run ended). The callback's own signal aborts on either, so it can stop waiting.
export function answerWithin(what: string, call: (signal: AbortSignal) => unknown, timeoutMs: number, withdrawn: AbortSignal): Promise<unknown> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = AbortSignal.any([withdrawn, deadline.signal]);
  return new Promise<unknown>((resolve, reject) => {
    const stop = () => reject(new Error(deadline.signal.aborted ? `${what} did not answer within ${timeoutMs} ms` : 'the question was withdrawn'));
    // A question asked after its call ended (a handler's late ctx.elicit()) is moot at once.
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    Promise.resolve()
      .then(() => call(signal))
      .then(resolve, reject);
  }).finally(() => clearTimeout(timer));
}
