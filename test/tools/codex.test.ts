// Custom tools through the real `codex` (0.171.0) and a fake Responses server. Codex defers MCP tools
// behind its `tool_search` tool, so the scripted model searches first, as a real model must.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { run, tool, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeModel, type Script } from '../../src/testing/index.js';
import { abortWhileHandlerRuns, bridgeUrlOfCliIn, codexBridgeNamespace, codexToolSearch, flakyTool, ticketTool } from './support.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';


async function setup(script: Script): Promise<{ fake: FakeModel; opts: SharedStartOpts }> {
  const fake = await startFakeModel({ api: 'openai-responses', script });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-tools-codex-ws-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  return { fake, opts: { ...(await fake.env('codex')), workingDirectory: cwd } };
}

/** Search for the tool, then call it; one script step each. */
const searchThenCall = (name: string, input: unknown) => [
  { toolCalls: [codexToolSearch(name)] },
  { toolCalls: [{ name, namespace: codexBridgeNamespace, input }] },
];
/** The outputs the CLI sent back to the model in request `index`. */
function outputsSent(fake: FakeModel, index: number): string {
  const input = (fake.requests[index]?.body as { input: Array<{ type: string }> }).input;
  return JSON.stringify(input.filter((item) => item.type.endsWith('_output')));
}
describe('custom tools with codex (real binary)', () => {
  it('the model finds and calls the tool: parsed input, the result reaches the model, events use the tool\'s name', async () => {
    const { fake, opts } = await setup([...searchThenCall('lookup_ticket', { id: '42' }), { text: 'Ticket 42 is open.' }]);
    const calls: Parameters<typeof ticketTool>[0] = [];
    const result = await run(codexAdapter, 'What is the state of ticket 42?', { ...opts, tools: [ticketTool(calls)], collectEvents: true });

    expect(result).toMatchObject({ status: 'success', text: 'Ticket 42 is open.' });
    expect(calls.map((call) => call.input)).toEqual([{ id: '42' }]);
    // tool_search found the tool with its JSON Schema, and the result went back to the model.
    expect(outputsSent(fake, 1)).toContain('"name":"lookup_ticket","description":"Looks up a ticket by id and tells its state"');
    expect(outputsSent(fake, 2)).toContain('ticket 42: open');
    const [use] = ofType(result.events, 'tool_use');
    expect(use).toMatchObject({ name: 'lookup_ticket', input: { id: '42' }, extra: { cliToolName: 'mcp__coderline__lookup_ticket' }, tool: { kind: 'mcp', name: 'lookup_ticket', server: 'coderline' } });
    expect(ofType(result.events, 'tool_result')).toEqual([
      expect.objectContaining({ id: use?.id, name: 'lookup_ticket', isError: false, output: 'ticket 42: open', tool: { kind: 'mcp', name: 'lookup_ticket', server: 'coderline' } }),
    ]);
  });

  it('a throwing handler and invalid input are failed tool results the model sees', async () => {
    const flaky = flakyTool();
    const calls: Parameters<typeof ticketTool>[0] = [];
    const { fake, opts } = await setup([
      { toolCalls: [codexToolSearch('flaky lookup ticket')] },
      { toolCalls: [{ name: 'flaky', namespace: codexBridgeNamespace, input: {} }, { name: 'lookup_ticket', namespace: codexBridgeNamespace, input: { id: 'x' } }] },
      { text: 'Both failed.' },
    ]);
    const result = await run(codexAdapter, 'Try both', { ...opts, tools: [flaky, ticketTool(calls)], collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Both failed.' });
    expect(calls).toEqual([]);
    const results = ofType(result.events, 'tool_result');
    expect(results.map((event) => [event.name, event.isError])).toEqual(expect.arrayContaining([['flaky', true], ['lookup_ticket', true]]));
    // The MCP result's text, as the other CLIs give it, not the CLI's result object.
    expect(results.find((event) => event.name === 'flaky')?.output).toBe('ticket database unreachable');
    expect(outputsSent(fake, 2)).toContain('ticket database unreachable');
    expect(outputsSent(fake, 2)).toContain('Invalid input for lookup_ticket');
  });

  it('abort while a handler runs: its signal fires, no process or server is left', async () => {
    const { opts } = await setup([...searchThenCall('lookup_ticket', { id: '7' }), { text: 'never reached' }]);
    await abortWhileHandlerRuns((tools, signal) => run(codexAdapter, 'Look up ticket 7', { ...opts, tools, signal }), () => bridgeUrlOfCliIn(opts.workingDirectory!));
  });

  // Four, not ten: ten Codex runs at once beside another checkout's suite (two clones tested together)
  // once got an empty tool_search result in one run, and the model never called its tool. Four still
  // show that each run's bridge answers only its own tool.
  it('parallel runs, each with its own bridge and tool, do not cross-talk', async () => {
    const runs = await Promise.all(
      Array.from({ length: 4 }, async (_, n) => {
        const { fake, opts } = await setup([...searchThenCall('lookup_ticket', { id: String(n) }), { text: `done ${n}` }]);
        const calls: Array<{ run: number; id: string }> = [];
        const own = tool({
          name: 'lookup_ticket',
          description: 'Looks up a ticket',
          input: z.object({ id: z.string() }),
          handler: ({ id }) => (calls.push({ run: n, id }), `answer-of-run-${n} for ticket ${id}`),
        });
        return { n, fake, calls, pending: run(codexAdapter, `Ticket ${n}?`, { ...opts, tools: [own] }) };
      }),
    );
    for (const { n, fake, calls, pending } of runs) {
      expect(await pending).toMatchObject({ status: 'success', text: `done ${n}` });
      expect(calls).toEqual([{ run: n, id: String(n) }]);
      const sent = outputsSent(fake, 2);
      expect(sent).toContain(`answer-of-run-${n} for ticket ${n}`);
      expect(sent.match(/answer-of-run-\d+/g)).toEqual([`answer-of-run-${n}`]);
    }
  });
});
