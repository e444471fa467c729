// Real binaries against the fake model servers: what a run's result holds of its plan and its
// conversation, through the core's result assembly (one-shot: claude 2.1.332; live: codex 0.171.0's
// app-server). The translations themselves are tested from recordings (test/claude/subagents-plans,
// test/replay/plans-subagents, test/core/transcript).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { createCoder } from '../../src/index.js';
import { startFakeModel, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';

async function fake(cli: 'claude' | 'codex', script: Script) {
  const model = await startFakeModel({ api: cli === 'claude' ? 'anthropic' : 'openai-responses', script });
  const cwd = mkdtempSync(join(tmpdir(), `coderline-plan-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rmSync(cwd, { recursive: true, force: true }));
  return { model, opts: { ...(await model.env(cli)), workingDirectory: cwd } };
}

const steps = (first: string, second: string) => [{ content: 'Write the tests', status: first }, { content: 'Fix the bug', status: second }];

describe('claude (real binary), one-shot', () => {
  it('RunResult.plan is the last TodoWrite list; RunResult.messages the prompt, both calls, their results and the answer', async () => {
    const todo = (first: string, second: string) => ({ name: 'TodoWrite', input: { todos: steps(first, second).map((step) => ({ ...step, activeForm: step.content })) } });
    const { opts } = await fake('claude', [{ toolCalls: [todo('in_progress', 'pending')] }, { toolCalls: [todo('completed', 'in_progress')] }, { text: 'Planned.' }]);
    const coder = createCoder(claudeAdapter, { ...opts, extraEnv: { ...opts.extraEnv, CLAUDE_CODE_ENABLE_TASKS: '0' } });
    cleanupAfterTest(() => coder.close());
    const result = await coder.start().run('Plan the fix.');
    expect(result.status).toBe('success');
    expect(result.plan).toEqual(steps('completed', 'in_progress'));
    expect(result.messages?.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(result.messages?.[0]?.blocks).toEqual([{ type: 'text', text: 'Plan the fix.' }]);
    expect(result.messages?.at(-1)?.blocks).toEqual([{ type: 'text', text: 'Planned.' }]);
  });
});

describe('codex (real binary), live', () => {
  it('a turn’s result holds the plan of turn/plan/updated, and each turn has its own messages', async () => {
    const plan = { name: 'update_plan', input: { plan: [{ step: 'Write the tests', status: 'in_progress' }, { step: 'Fix the bug', status: 'pending' }] } };
    const { opts } = await fake('codex', [{ toolCalls: [plan] }, { text: 'Planned.' }, { text: 'Nothing to plan.' }]);
    const coder = createCoder(codexAdapter, { ...opts, codexConfig: { ...opts.codexConfig, 'tools.update_plan.enabled': true } });
    cleanupAfterTest(() => coder.close());
    const live = await coder.open();
    cleanupAfterTest(() => live.close());
    const first = await live.send('Plan the fix.').result;
    expect(first).toMatchObject({ status: 'success', text: 'Planned.', plan: steps('in_progress', 'pending') });
    expect(first.messages?.[0]).toEqual({ role: 'user', blocks: [{ type: 'text', text: 'Plan the fix.' }] });
    const second = await live.send('Anything else?').result;
    expect(second.plan).toBeUndefined();
    expect(second.messages).toEqual([
      { role: 'user', blocks: [{ type: 'text', text: 'Anything else?' }] },
      { role: 'assistant', blocks: [{ type: 'text', text: 'Nothing to plan.' }] },
    ]);
  });
});
