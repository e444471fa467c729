// What reaches a CLI's environment is what the caller named: a variable name with `=` is read by the
// child as the name before it (Node writes `NAME=VALUE` as given: extraEnv { 'NODE_OPTIONS=--require=/x ': '' }
// reaches node as NODE_OPTIONS), and a NUL byte cannot reach a process at all. Both are
// InvalidOptionsError before anything starts (the version probe included), naming the variable
// without its value; before, a NUL in a value threw Node's TypeError with the value quoted.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, run } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'coderline-env-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = join(dir, 'starts.log');
const cli = join(dir, 'claude');
writeFileSync(cli, `#!/bin/sh\necho start >> '${log}'\necho 'claude 2.1.332'\n`);
chmodSync(cli, 0o755);

const secret = 'sk-live-4f9d2a7c1e8b';

describe('extraEnv names and values that cannot be what they say', () => {
  it.each([
    // The attacker: a job's extraEnv passes an app's check of names ("no NODE_OPTIONS") spelled with `=`.
    ['a name with =', { 'NODE_OPTIONS=--require=/tmp/evil.js ': '' }, /environment variable name NODE_OPTIONS=… holds "="/],
    ['an empty name', { '': secret }, /environment variable name "" is empty/],
    // The attacker: a token with a NUL byte (from a form) makes the run throw with the token in the message.
    ['a NUL in a value', { TOKEN: `${secret}\u0000x` }, /environment variable TOKEN contains a NUL byte/],
    ['a NUL in a name', { 'TO\u0000KEN': secret }, /environment variable TO\\0KEN contains a NUL byte/],
  ])('%s is InvalidOptionsError before anything starts, without the value', async (_label, extraEnv, message) => {
    const error: unknown = await run('claude', 'hi', { executablePath: cli, extraEnv }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(String((error as Error).message)).toMatch(message);
    expect(String((error as Error).message)).not.toContain(secret);
    expect(String((error as Error).message)).not.toContain('/tmp/evil.js');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
  });
});
