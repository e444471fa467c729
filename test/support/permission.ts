// canUseTool checks shared by the live suites of each CLI.
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import type { CanUseTool, RunResult } from '../../src/index.js';

/** A policy callback that fails: the tool use must be denied, with a non-fatal error event. */
export const failingPolicy: CanUseTool = () => {
  throw new Error('policy service down');
};

/** The turn went on, the command never ran (`proof` was not created), and the failure was reported. */
export function expectDeniedByFailingPolicy(result: RunResult<unknown, string>, proof: string): void {
  expect(result.status).toBe('success');
  expect(existsSync(proof)).toBe(false);
  expect(result.events?.find((e) => e.type === 'error')).toMatchObject({ fatal: false, message: expect.stringContaining('policy service down') });
}
