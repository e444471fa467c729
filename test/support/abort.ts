// Aborting a run while a tool command of its own is running: the command carries a marker unique to
// the test, and the abort waits until that process exists, so "the command is gone" is never vacuous.
import type { CoderStreamEvent } from '../../src/index.js';
import { markedProcessStarts, type Marker } from './processes.js';

export interface AbortHooks {
  signal: AbortSignal;
  onEvent(event: CoderStreamEvent): void;
}

/**
 * Starts a run with `hooks` (pass them into its options); at its first tool_use, waits for the marked
 * command to run, then aborts. `commandRan` says whether the command was seen running.
 */
export async function abortOnceMarkedCommandRuns<R>(marker: Marker, start: (hooks: AbortHooks) => Promise<R>): Promise<{ result: R; commandRan: boolean }> {
  const controller = new AbortController();
  let commandRan: Promise<boolean> | undefined;
  const result = await start({
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === 'tool_use') commandRan ??= markedProcessStarts(marker).finally(() => controller.abort());
    },
  });
  return { result, commandRan: (await commandRan) ?? false };
}
