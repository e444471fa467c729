// Custom tools through the real `copilot` (1.0.102, BYOK mode) and the fake chat-completions server.
// Copilot offers an MCP tool to the model as `<server>-<tool>`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { run, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeModel, type Script } from '../../src/testing/index.js';
import { abortWhileHandlerRuns, bridgeUrlOfCliIn, flakyTool, ticketTool } from './support.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';

async function setup(script: Script): Promise<{ fake: FakeModel; opts: SharedStartOpts; cwd: string }> {
  const fake = await startFakeModel({ api: 'openai-chat', script });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-tools-copilot-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  return { fake, opts: { ...(await fake.env('copilot')), workingDirectory: cwd }, cwd };
}

const callTool = (name: string, input: unknown) => ({ toolCalls: [{ name: `coderline-${name}`, input }] });
/** The tool messages the CLI sent back to the model in request `index`. */
function toolMessagesSent(fake: FakeModel, index: number): string {
  const messages = (fake.requests[index]?.body as { messages: Array<{ role: string }> }).messages;
  return JSON.stringify(messages.filter((message) => message.role === 'tool'));
}
describe('custom tools with copilot (real binary)', () => {
  it('the model calls the tool: the handler gets the parsed input, the result reaches the model, events use the tool\'s name', async () => {
    const { fake, opts } = await setup([callTool('lookup_ticket', { id: '42' }), { text: 'Ticket 42 is open.' }]);
    const calls: Parameters<typeof ticketTool>[0] = [];
    const result = await run(copilotAdapter, 'What is the state of ticket 42?', { ...opts, tools: [ticketTool(calls)], collectEvents: true });

    expect(result).toMatchObject({ status: 'success', text: 'Ticket 42 is open.' });
    expect(calls.map((call) => call.input)).toEqual([{ id: '42' }]);
    // The model was offered the tool with its JSON Schema, and got its result back.
    const offered = (fake.requests[0]?.body as { tools: Array<{ function: { name: string; parameters: unknown } }> }).tools;
    expect(offered.find((t) => t.function.name === 'coderline-lookup_ticket')?.function.parameters).toMatchObject({ type: 'object', required: ['id'] });
    expect(toolMessagesSent(fake, 1)).toContain('ticket 42: open');
    const [use] = ofType(result.events, 'tool_use');
    expect(use).toMatchObject({ name: 'lookup_ticket', input: { id: '42' }, extra: { cliToolName: 'coderline-lookup_ticket' }, tool: { kind: 'mcp', name: 'lookup_ticket', server: 'coderline' } });
    expect(ofType(result.events, 'tool_result')).toEqual([
      expect.objectContaining({ id: use?.id, name: 'lookup_ticket', output: 'ticket 42: open', isError: false, extra: { cliToolName: 'coderline-lookup_ticket' } }),
    ]);
  });

  it('a throwing handler and invalid input are failed tool results the model sees; the handler never gets bad input', async () => {
    const flaky = flakyTool();
    const calls: Parameters<typeof ticketTool>[0] = [];
    const { fake, opts } = await setup([
      { toolCalls: [{ name: 'coderline-flaky', input: {} }, { name: 'coderline-lookup_ticket', input: { id: 'x' } }] },
      { text: 'Both failed.' },
    ]);
    const result = await run(copilotAdapter, 'Try both', { ...opts, tools: [flaky, ticketTool(calls)], collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Both failed.' });
    expect(calls).toEqual([]);
    expect(ofType(result.events, 'tool_result').map((event) => [event.name, event.isError])).toEqual(expect.arrayContaining([['flaky', true], ['lookup_ticket', true]]));
    expect(toolMessagesSent(fake, 1)).toContain('ticket database unreachable');
    expect(toolMessagesSent(fake, 1)).toContain('Invalid input for lookup_ticket');
  });

  it('abort while a handler runs: its signal fires, no process or server is left', async () => {
    const { opts, cwd } = await setup([callTool('lookup_ticket', { id: '7' }), { text: 'never reached' }]);
    await abortWhileHandlerRuns((tools, signal) => run(copilotAdapter, 'Look up ticket 7', { ...opts, tools, signal }), () => bridgeUrlOfCliIn(cwd));
  });
});
