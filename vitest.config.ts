import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds for a hang, not for speed: on a loaded machine a real CLI (or the command through tsx)
    // can take tens of seconds to start, and a passing test never waits for these.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
