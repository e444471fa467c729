// A canary's own options (a config key that offers a plan tool, an environment variable) go on top of
// the fake model's, which point the CLI at the fake: before, a canary's codexConfig replaced the fake's
// whole config, and Codex went looking for the real API until the stall timeout.
import { describe, expect, it } from 'vitest';
import { withCanaryOpts } from '../../src/probe/run.js';

describe('withCanaryOpts', () => {
  it('adds the canary\'s keys to an object option both set, and keeps the fake model\'s', () => {
    const fake = { codexConfig: { model_provider: 'fake', 'model_providers.fake.base_url': 'http://127.0.0.1:1/v1' }, extraEnv: { FAKE_MARKER: 'fake' }, model: 'fake-model' };
    const merged = withCanaryOpts(fake, { codexConfig: { 'tools.update_plan.enabled': true }, extraEnv: { CLAUDE_CODE_ENABLE_TASKS: '0' } });
    expect(merged).toEqual({
      codexConfig: { model_provider: 'fake', 'model_providers.fake.base_url': 'http://127.0.0.1:1/v1', 'tools.update_plan.enabled': true },
      extraEnv: { FAKE_MARKER: 'fake', CLAUDE_CODE_ENABLE_TASKS: '0' },
      model: 'fake-model',
    });
  });

  it('lets the canary replace a value that is not an object', () => {
    expect(withCanaryOpts({ model: 'a', workingDirectory: '/tmp/a' }, { model: 'b' })).toEqual({ model: 'b', workingDirectory: '/tmp/a' });
  });
});
