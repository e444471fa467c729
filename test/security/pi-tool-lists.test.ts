// pi takes --tools and --exclude-tools as comma lists (1.6.0 parseArgs splits on "," and trims), so
// one tool name with a comma is two tools to pi.
import { describe, expect, it } from 'vitest';
import { piArgs } from '../../src/adapters/pi/argv.js';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { checkSupport } from '../../src/core/run/validate.js';
import { InvalidOptionsError } from '../../src/errors.js';
import type { ResolvedOpts } from '../../src/options.js';

const check = (opts: ResolvedOpts) => () => checkSupport(piAdapter, opts, { kind: 'new' });

describe('pi: a tool name is one tool', () => {
  it('a name with a comma in allowedTools or permissionPolicy is InvalidOptionsError before pi starts', () => {
    // The attacker: an app lets a job allow tools whose names start with "read"; the job sends
    // "read,bash", and pi got `--tools read,bash`: bash allowed.
    expect(piArgs({ allowedTools: ['read,bash'] }, { kind: 'new' })).toEqual(expect.arrayContaining(['--tools', 'read,bash']));
    expect(check({ allowedTools: ['read,bash'] })).toThrow(InvalidOptionsError);
    expect(check({ permissionPolicy: { allow: ['read, bash'] } })).toThrow(/permissionPolicy\.allow: "read, bash" holds a separator outside parentheses, which pi reads as two rules/);
    expect(check({ permissionPolicy: { deny: ['bash,'] } })).toThrow(InvalidOptionsError);
  });

  it('plain names pass', () => {
    expect(check({ allowedTools: ['read', 'grep'], permissionPolicy: { allow: ['mcp__server__tool'], deny: ['bash'] } })).not.toThrow();
  });
});
