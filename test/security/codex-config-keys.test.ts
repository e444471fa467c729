// A codexConfig key is the text before the first `=` of its `-c key=value`, and Codex 0.171.0 splits
// there whatever the key holds, then reads the rest as a TOML value (a `#` starts a comment there).
// Measured: `-c 'model="evil"#="v"'` ran with the model `evil` ("Model metadata for `evil` not found").
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { checkSupport } from '../../src/core/run/validate.js';
import { InvalidOptionsError } from '../../src/errors.js';

const check = (codexConfig: Record<string, string>) => () => checkSupport(codexAdapter, { codexConfig }, { kind: 'new' });

describe('codexConfig keys become no other key', () => {
  it('a key holding = (or a control character) is InvalidOptionsError before the run', () => {
    // The attacker: an app builds `model_providers.<name>.name` from a job's provider name, and the job
    // sends `x.name` spelled `sandbox_mode="danger-full-access"#`: Codex would set sandbox_mode instead.
    for (const key of ['sandbox_mode="danger-full-access"#', 'model="evil"#.name', 'a=b', 'a\nb', 'a\u0000b']) {
      expect(check({ [key]: 'v' }), JSON.stringify(key)).toThrow(InvalidOptionsError);
    }
    expect(check({ 'sandbox_mode="x"#': 'v' })).toThrow(/codexConfig key "sandbox_mode=\\"x\\"#": a config key cannot hold "=" or a control character/);
  });

  it('dotted keys and keys with - _ : / stay allowed', () => {
    for (const key of ['model', 'model_providers.corp.base_url', 'mcp_servers.my-server.url', 'projects./home/me/repo.trust_level']) {
      expect(check({ [key]: 'v' }), key).not.toThrow();
    }
  });
});
