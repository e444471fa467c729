// Polls until a condition holds; rejects after `timeoutMs` (for things that settle asynchronously,
// such as a process going away after its parent was stopped).
export async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
