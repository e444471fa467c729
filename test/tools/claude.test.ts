// Custom tools through the real `claude` (2.1.332) and the fake Anthropic server: the model calls
// the tool over the SDK's MCP bridge, the handler runs, and its result reaches the next model call.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { run } from '../../src/index.js';
import { startFakeModel, type FakeModel, type Script } from '../../src/testing/index.js';
import { abortWhileHandlerRuns, bridgeUrlOfCliIn, flakyTool, ticketTool } from './support.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';


async function fake(script: Script) {
  const model = await startFakeModel({ api: 'anthropic', script });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-tools-claude-'));
  cleanupAfterTest(() => model.close(), () => rm(cwd, { recursive: true, force: true }));
  return { model, opts: { ...(await model.env('claude')), workingDirectory: cwd } };
}

const callTicket = (input: unknown) => ({ toolCalls: [{ name: 'mcp__coderline__lookup_ticket', input }] });
/** What the CLI sent back to the model as the tool's result (the last user turn's tool_result blocks). */
function toolResultsSent(model: FakeModel, index: number): string {
  const messages = (model.requests[index]?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content);
}
describe('custom tools with claude (real binary)', () => {
  it('the model calls the tool: the handler gets the parsed input, the result reaches the model, events use the tool\'s name', async () => {
    const { model, opts } = await fake([callTicket({ id: '42' }), { text: 'Ticket 42 is open.' }]);
    const calls: Parameters<typeof ticketTool>[0] = [];
    const result = await run(claudeAdapter, 'What is the state of ticket 42?', { ...opts, tools: [ticketTool(calls)], collectEvents: true });

    expect(result).toMatchObject({ status: 'success', text: 'Ticket 42 is open.' });
    expect(calls.map((call) => call.input)).toEqual([{ id: '42' }]);
    expect(toolResultsSent(model, 1)).toContain('ticket 42: open');
    // Only the run's own MCP server: nothing from user or project config.
    expect(ofType(result.events, 'init')[0]?.extra?.mcpServers).toEqual([expect.objectContaining({ name: 'coderline', status: 'connected' })]);
    const [use] = ofType(result.events, 'tool_use');
    expect(use).toMatchObject({ name: 'lookup_ticket', input: { id: '42' }, extra: { cliToolName: 'mcp__coderline__lookup_ticket' }, tool: { kind: 'mcp', name: 'lookup_ticket', server: 'coderline' } });
    expect(ofType(result.events, 'tool_result')).toEqual([
      expect.objectContaining({ id: use?.id, name: 'lookup_ticket', output: 'ticket 42: open', isError: false, extra: { cliToolName: 'mcp__coderline__lookup_ticket' } }),
    ]);
  });

  it('a handler that throws: the model gets the error as a failed tool result and the run goes on', async () => {
    const { model, opts } = await fake([{ toolCalls: [{ name: 'mcp__coderline__flaky', input: {} }] }, { text: 'The lookup failed.' }]);
    const flaky = flakyTool();
    const result = await run(claudeAdapter, 'Try it', { ...opts, tools: [flaky], collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'The lookup failed.' });
    expect(ofType(result.events, 'tool_result')[0]).toMatchObject({ name: 'flaky', isError: true, output: expect.stringContaining('ticket database unreachable') });
    expect(toolResultsSent(model, 1)).toMatch(/"is_error":true.*ticket database unreachable|ticket database unreachable.*"is_error":true/);
  });

  it('invalid input: the handler is not called and the model is told what is wrong', async () => {
    const { model, opts } = await fake([callTicket({ id: 'forty-two' }), { text: 'Bad id.' }]);
    const calls: Parameters<typeof ticketTool>[0] = [];
    const result = await run(claudeAdapter, 'Look up ticket forty-two', { ...opts, tools: [ticketTool(calls)], collectEvents: true });
    expect(result.status).toBe('success');
    expect(calls).toEqual([]);
    expect(ofType(result.events, 'tool_result')[0]).toMatchObject({ name: 'lookup_ticket', isError: true });
    expect(toolResultsSent(model, 1)).toContain('Invalid input for lookup_ticket: id: a ticket id is digits');
  });

  it('abort while a handler runs: the bridge refuses requests without the secret; the signal fires, the run is cancelled, no process or server is left', async () => {
    const { opts } = await fake([callTicket({ id: '7' }), { text: 'never reached' }]);
    await abortWhileHandlerRuns((tools, signal) => run(claudeAdapter, 'Look up ticket 7', { ...opts, tools, signal }), () => bridgeUrlOfCliIn(opts.workingDirectory!));
  });
});
