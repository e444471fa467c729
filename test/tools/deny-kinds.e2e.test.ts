// permissionPolicy.denyKinds on the real CLIs (fake models on 127.0.0.1): a shell call the run's
// own allow rules would let through is not run when kind `shell` is denied, because the CLI was
// never given the tool. Codex has no flag for it and refuses the option before anything spawns.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdapterSpec, OneShotOpts } from '../../src/index.js';
import { createCoder, FeatureNotSupportedError, run } from '../../src/index.js';
import { builtInAdapters } from '../../src/registry.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fakeForLive } from '../support/live.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

type OfferedTool = { name?: string; function?: { name?: string }; functionDeclarations?: Array<{ name?: string }> };

/** The tool names a model request offers (Anthropic `tools[].name`, chat completions `tools[].function.name`, Gemini `tools[].functionDeclarations[].name`). */
const offered = (body: unknown): string[] =>
  ((body as { tools?: OfferedTool[] } | undefined)?.tools ?? []).flatMap((tool) => tool.functionDeclarations?.map((declaration) => declaration.name ?? '') ?? [tool.function?.name ?? tool.name ?? '']);

const denyShell = (opts: OneShotOpts): OneShotOpts => ({ ...opts, permissionPolicy: { ...opts.permissionPolicy, denyKinds: ['shell'] } });

describe('permissionPolicy.denyKinds (real binaries)', () => {
  it.each(['claude', 'copilot', 'pi', 'gemini', 'opencode'] as const)('%s: a shell call the allow rules would run does not run', async (cli) => {
    const adapter = builtInAdapters[cli] as AdapterSpec<string>;
    const probe = adapter.probe!;
    let proof = '';
    const { model, opts, workDir } = await fakeForLive(cli, (_request, index) => (index === 0 ? { toolCalls: [probe.shellCall(`touch ${proof}`)] } : { text: 'Done.' }));
    proof = join(workDir, 'denied-kind.txt');
    const base = withPinnedRuntime(cli, { ...opts, ...probe.toolOpts });
    const result = await run(adapter, 'Touch it.', denyShell(base));
    expect(result.status, result.error?.message).toBe('success');
    expect(existsSync(proof)).toBe(false);
    // The CLI was never given the tool: the model is not offered it.
    expect(offered(model.requests[0]?.body)).not.toContain(probe.shellCall('x').name);
    expect(offered(model.requests[0]?.body).length).toBeGreaterThan(0);
  });

  it.each(['copilot', 'gemini', 'opencode'] as const)('%s live (ACP): the same flags hold', async (cli) => {
    const probe = (builtInAdapters[cli] as AdapterSpec<string>).probe!;
    let proof = '';
    const { opts, workDir } = await fakeForLive(cli, (_request, index) => (index === 0 ? { toolCalls: [probe.shellCall(`touch ${proof}`)] } : { text: 'Done.' }));
    proof = join(workDir, 'denied-kind.txt');
    const coder = createCoder(builtInAdapters[cli] as AdapterSpec<string>, denyShell({ ...opts, ...probe.toolOpts }));
    cleanupAfterTest(() => coder.close());
    const live = await coder.open();
    expect((await live.send('Touch it.').result).status).toBe('success');
    expect(existsSync(proof)).toBe(false);
  });

  it('codex: refused before anything spawns, saying what to do instead', async () => {
    const result = run(builtInAdapters.codex, 'Hi', { executablePath: '/nonexistent/codex', permissionPolicy: { denyKinds: ['shell'] } });
    await expect(result).rejects.toBeInstanceOf(FeatureNotSupportedError);
    await expect(result).rejects.toMatchObject({ message: expect.stringContaining('canUseTool') });
  });
});
