// Real binaries (claude 2.1.332, codex 0.171.0, copilot 1.0.102, pi 1.6.0) against the fake model
// servers: a resume, a fork and a live open() of a session id the CLI's store does not have fail with
// one code, `session_not_found`, on every CLI — a host handles it once. Before, the same mistake was
// invalid_options on Claude, Copilot and pi, and protocol on Codex's live app-server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { geminiAdapter } from '../../src/adapters/gemini/index.js';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import { createCoder, type ProviderName } from '../../src/index.js';
import { fakeApiOf, startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const adapters: Record<ProviderName, AdapterSpec> = { claude: claudeAdapter, codex: codexAdapter, copilot: copilotAdapter, pi: piAdapter, gemini: geminiAdapter, opencode: opencodeAdapter };
/** An id of the shape each CLI makes, that no store here holds. */
const missing = '01a22c6b-0000-7000-8000-000000000000';

async function coderFor(cli: ProviderName) {
  const fake = await startFakeModel({ api: fakeApiOf[cli], script: [{ text: 'never sent' }] });
  const cwd = mkdtempSync(join(tmpdir(), `coderline-missing-${cli}-`));
  dirs.push(cwd);
  const coder = createCoder(adapters[cli], withPinnedRuntime(cli, { ...(await fake.env(cli)), workingDirectory: cwd }));
  cleanupAfterTest(() => fake.close(), () => coder.close());
  return { fake, coder };
}

/** What a run or an open() that failed says: its error's code and message, thrown or in the result. */
async function failure(attempt: () => Promise<{ status: string; error?: { code: string; message: string } | undefined }>) {
  try {
    const result = await attempt();
    return { status: result.status, code: result.error?.code, message: result.error?.message };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { status: 'thrown', code, message };
  }
}

describe.each(['claude', 'codex', 'copilot', 'pi'] as const)('%s (real binary): a session id the store lacks', (cli) => {
  it('resume, fork and live open() all fail with session_not_found, and the model is never asked', async () => {
    const { fake, coder } = await coderFor(cli);
    const resumed = await failure(() => coder.resume(missing).run('Continue.'));
    const forked = adapters[cli].canFork ? await failure(async () => (await coder.resume(missing).fork()).run("Branch off.")) : undefined;
    const opened = await failure(async () => {
      const live = await coder.open({}, { sessionId: missing });
      try {
        return await live.send('Continue.').result;
      } finally {
        await live.close();
      }
    });
    for (const outcome of [resumed, forked ?? resumed, opened]) {
      expect(outcome).toMatchObject({ code: 'session_not_found' });
      expect(outcome.message).toContain(missing);
    }
    expect(fake.requests).toHaveLength(0);
  });
});

// One-shot resume (and fork where the CLI forks) on the two ACP-only live modes.
describe.each(['gemini', 'opencode'] as const)('%s (real binary): a session id the store lacks', (cli) => {
  it('resume (and fork) fail with session_not_found naming the id, and the model is never asked', async () => {
    const { fake, coder } = await coderFor(cli);
    const resumed = await failure(() => coder.resume(missing).run('Continue.'));
    const forked = adapters[cli].canFork ? await failure(async () => (await coder.resume(missing).fork()).run('Branch off.')) : resumed;
    for (const outcome of [resumed, forked]) {
      expect(outcome).toMatchObject({ code: 'session_not_found' });
      expect(outcome.message).toContain(missing);
    }
    expect(fake.requests).toHaveLength(0);
  });
});
