// canUseTool on a one-shot claude run(): the CLI asks the tool bridge's permission tool
// (--permission-prompt-tool), which asks the callback. Real binary, fake Anthropic server.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { run, tool, type PermissionRequest, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeModel, type RecordedRequest } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { expectDeniedByFailingPolicy, failingPolicy } from '../support/permission.js';

async function bashTurn(command: string): Promise<{ model: FakeModel; opts: SharedStartOpts; workDir: string }> {
  const model = await startFakeModel({ api: 'anthropic', script: [{ toolCalls: [{ name: 'Bash', input: { command, description: 'run a command' }, id: 'toolu_run_1' }] }, { text: 'Done with the tool.' }] });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-claude-permission-'));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  return { model, opts: { ...(await model.env('claude')), workingDirectory: workDir }, workDir };
}

/** The tool_result the CLI sent back for the scripted call. */
function toldModel(request: RecordedRequest | undefined): { is_error?: boolean; content: unknown } | undefined {
  const messages = (request?.body as { messages: Array<{ content: unknown }> }).messages;
  return messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((block: { type?: string; tool_use_id?: string }) => block.tool_use_id === 'toolu_run_1');
}

describe('claude run() with canUseTool (real binary, MCP permission prompt tool)', () => {
  it('allow: the callback sees the call and the command runs; both permission events are in the result', async () => {
    const { model, opts, workDir } = await bashTurn('touch allowed.txt');
    const seen: PermissionRequest[] = [];
    const result = await run(claudeAdapter, 'Touch it.', { ...opts, collectEvents: true, canUseTool: (request) => (seen.push(request), { behavior: 'allow' }) });
    expect(result.status).toBe('success');
    expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
    expect(seen).toEqual([expect.objectContaining({ toolName: 'Bash', toolUseId: 'toolu_run_1', input: expect.objectContaining({ command: 'touch allowed.txt' }), tool: { kind: 'shell', name: 'Bash', command: 'touch allowed.txt' } })]);
    expect(result.events?.filter((e) => e.type === 'permission')).toMatchObject([{ phase: 'request' }, { phase: 'decision', decision: 'allow' }]);
    expect(toldModel(model.requests[1])?.is_error ?? false).toBe(false);
  });

  it('deny: the command does not run and the model is told the message', async () => {
    const { model, opts, workDir } = await bashTurn('touch denied.txt');
    const result = await run(claudeAdapter, 'Touch it.', { ...opts, canUseTool: () => ({ behavior: 'deny', message: 'Refused by the run policy.' }) });
    expect(result.status).toBe('success');
    expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
    expect(toldModel(model.requests[1])).toMatchObject({ is_error: true });
    expect(JSON.stringify(toldModel(model.requests[1])?.content)).toContain('Refused by the run policy.');
  });

  it('allow with changed input runs the changed command', async () => {
    const { opts, workDir } = await bashTurn('touch original.txt');
    const result = await run(claudeAdapter, 'Touch it.', { ...opts, canUseTool: (request) => ({ behavior: 'allow', updatedInput: { ...request.input, command: 'touch changed.txt' } }) });
    expect(result.status).toBe('success');
    expect(existsSync(join(workDir, 'changed.txt'))).toBe(true);
    expect(existsSync(join(workDir, 'original.txt'))).toBe(false);
  });

  it('a callback that throws denies, with a non-fatal error event', async () => {
    const { opts, workDir } = await bashTurn('touch thrown.txt');
    const result = await run(claudeAdapter, 'Touch it.', { ...opts, collectEvents: true, canUseTool: failingPolicy });
    expectDeniedByFailingPolicy(result, join(workDir, 'thrown.txt'));
  });

  it('a run tool may not take the permission tool\'s name', async () => {
    const clash = tool({ name: 'coderline_permission_prompt', description: 'x', input: z.object({}), handler: () => 'x' });
    await expect(run(claudeAdapter, 'Hi', { tools: [clash], canUseTool: () => ({ behavior: 'allow' }) })).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
