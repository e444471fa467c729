// Cleanups a test registers as it goes (servers, temp dirs, coders), run after each test in reverse
// order: a later resource may depend on an earlier one, such as a coder on its fake server.
import { afterEach } from 'vitest';

const pending: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of pending.splice(0).reverse()) await cleanup();
});

export function cleanupAfterTest(...cleanups: Array<() => unknown>): void {
  pending.push(...cleanups);
}
