// Variables in this test process's environment for one test: what a CLI inherits from its host.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { cleanupAfterTest } from './cleanup.js';

/** Sets `vars` in process.env until the test ends, then puts back what was there. */
export function setHostEnv(vars: Record<string, string>): void {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  cleanupAfterTest(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/**
 * For `inheritEnv: 'minimal'` on a real CLI: a host variable outside the minimal set (a secret), one
 * inside it (a locale variable, so the tool is seen to inherit from the host at all), and a shell
 * command that prints both. No name has KEY, SECRET or TOKEN in it: Codex hides those from its tools itself.
 */
export function hostSecretProbe(): { command: string; seen: string; secret: string } {
  const tag = randomUUID().slice(0, 8);
  const secret = `hidden-${tag}`;
  setHostEnv({ CODERLINE_E2E_HIDDEN: secret, LC_CODERLINE_E2E: `kept-${tag}` });
  return { command: 'echo "hidden=[$CODERLINE_E2E_HIDDEN] kept=[$LC_CODERLINE_E2E]"', seen: `hidden=[] kept=[kept-${tag}]`, secret };
}

/** A minimal-env run succeeded, its shell tool printed `seen` (no secret), and the model got that back. */
export function expectSecretHidden(probe: { seen: string; secret: string }, run: { status: string; toolOutput: unknown; fedBack: string }): void {
  expect(run.status).toBe('success');
  expect(String(run.toolOutput)).toContain(probe.seen);
  expect(run.fedBack).toContain(probe.seen);
  expect(run.fedBack).not.toContain(probe.secret);
}
