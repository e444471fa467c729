// An MCP tool's call in an ACP agent's records (kind `other`, no tool name): each agent's dialect
// names its server and tool, so the tool_use is `mcp` like the one-shot runs' — the run's own tools by
// the user's name, the others by `mcp__<server>__<tool>`. The updates are those the binaries printed
// in a live session calling the tools bridge's `lookup` (copilot 1.0.102, opencode 1.18.33, gemini
// 0.61.0; session ids shortened); the end-to-end proof is test/ai-sdk/matrix.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCopilotAcpTranslator } from '../../src/adapters/copilot/acp-translate.js';
import { geminiAcpTranslation } from '../../src/adapters/gemini/acp-translate.js';
import { opencodeAcpTranslation } from '../../src/adapters/opencode/acp-translate.js';
import { acpAnswerRecord } from '../../src/core/acp/answer.js';
import { createAcpTranslator } from '../../src/core/acp/translate.js';
import type { Translator, TranslatorContext } from '../../src/core/contract/adapter.js';
import { tool, type TranslatedEvent } from '../../src/index.js';
import { replayLive } from '../../src/replay/replay.js';

const update = (body: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: body } });
const done = acpAnswerRecord({ stopReason: 'end_turn' });
const lookup = tool({ name: 'lookup', description: 'Looks up', input: z.object({ id: z.string() }), handler: () => 'open' });
const withTools: TranslatorContext = { opts: { tools: [lookup], mcpServers: { fixture: { command: 'node' } } } };

const toolEvents = (translator: Translator, records: unknown[]): TranslatedEvent[] =>
  records.flatMap((record) => translator.translate(record)).filter((event) => event.type === 'tool_use' || event.type === 'tool_result');
const useOf = (events: TranslatedEvent[]) => events.find((event) => event.type === 'tool_use');

const bridged = { kind: 'mcp', name: 'lookup', server: 'coderline' };

describe('ACP agents: an MCP tool call is an mcp tool_use', () => {
  it('copilot titles it `<server>-<tool>`', () => {
    const events = toolEvents(createCopilotAcpTranslator(withTools), [
      update({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'coderline-lookup', kind: 'other', status: 'pending', rawInput: { id: '42' } }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'state of 42: open' } }], rawOutput: { content: 'state of 42: open' } }),
      done,
    ]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'tool_use', name: 'lookup', input: { id: '42' }, tool: bridged, extra: { title: 'coderline-lookup', cliToolName: 'coderline-lookup' } }),
      expect.objectContaining({ type: 'tool_result', name: 'lookup', tool: bridged, output: 'state of 42: open' }),
    ]);
  });

  it("another server's tool goes by mcp__<server>__<tool>; a title that names no known server stays other", () => {
    const translator = createCopilotAcpTranslator(withTools);
    const external = useOf(toolEvents(translator, [update({ sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'fixture-write_marker', kind: 'other', status: 'pending', rawInput: { text: 'x' } })]));
    expect(external).toMatchObject({ name: 'mcp__fixture__write_marker', tool: { kind: 'mcp', name: 'mcp__fixture__write_marker', server: 'fixture' } });
    const unknown = useOf(toolEvents(translator, [update({ sessionUpdate: 'tool_call', toolCallId: 'call_3', title: 'elsewhere-tool', kind: 'other', status: 'pending', rawInput: {} })]));
    expect(unknown).toMatchObject({ name: 'other', tool: { kind: 'other', name: 'other' } });
    // Without tools, the bridge's name is no server of the run.
    const plain = useOf(toolEvents(createCopilotAcpTranslator({ opts: {} }), [update({ sessionUpdate: 'tool_call', toolCallId: 'call_4', title: 'coderline-lookup', kind: 'other', status: 'pending', rawInput: {} })]));
    expect(plain).toMatchObject({ name: 'other' });
  });

  it('opencode titles it `<server>_<tool>` and sends the input with the next update: the tool_use waits for it', () => {
    const events = toolEvents(createAcpTranslator(opencodeAcpTranslation, withTools), [
      update({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'coderline_lookup', kind: 'other', status: 'pending', locations: [], rawInput: {} }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'in_progress', kind: 'other', title: 'coderline_lookup', locations: [], rawInput: { id: '42' } }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'state of 42: open' } }], rawOutput: { output: 'state of 42: open', metadata: { truncated: false } } }),
      done,
    ]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'tool_use', name: 'lookup', input: { id: '42' }, tool: bridged }),
      expect.objectContaining({ type: 'tool_result', name: 'lookup', output: 'state of 42: open' }),
    ]);
  });

  it('opencode: a held call is announced before any other record, and at the latest before the turn ends — never dropped', () => {
    const translator = createAcpTranslator(opencodeAcpTranslation, withTools);
    const events = [
      update({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'bash', kind: 'execute', status: 'pending', locations: [], rawInput: {} }),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Stopped.' } }),
      update({ sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'coderline_lookup', kind: 'other', status: 'pending', locations: [], rawInput: {} }),
      done,
    ].flatMap((record) => translator.translate(record));
    expect(events.map((event) => event.type)).toEqual(['init', 'tool_use', 'message', 'tool_use', 'done']);
    expect(events.filter((event) => event.type === 'tool_use').map((event) => event.type === 'tool_use' && [event.id, event.name])).toEqual([['call_1', 'execute'], ['call_2', 'lookup']]);
  });

  it('gemini names the tool in the call id (`mcp_<server>_<tool>`) and gives the input as the content', () => {
    const id = 'mcp_coderline_lookup__mcp_coderline_lookup_1796418576880_0';
    const events = toolEvents(createAcpTranslator(geminiAcpTranslation, withTools), [
      update({ sessionUpdate: 'tool_call', toolCallId: id, status: 'in_progress', title: 'lookup (coderline MCP Server)', content: [{ type: 'content', content: { type: 'text', text: '{"id":"42"}' } }], locations: [], kind: 'other' }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', title: 'lookup (coderline MCP Server)', content: [{ type: 'content', content: { type: 'text', text: 'state of 42: open' } }], locations: [], kind: 'other' }),
      done,
    ]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'tool_use', id, name: 'lookup', input: { id: '42' }, tool: bridged, extra: { title: 'lookup (coderline MCP Server)', cliToolName: 'mcp_coderline_lookup' } }),
      expect.objectContaining({ type: 'tool_result', id, name: 'lookup', output: 'state of 42: open' }),
    ]);
  });
});

describe('replayLive() with the options the session had', () => {
  it("names the MCP call as the live session did; without them the run's servers are unknown and it stays other", () => {
    const lines = [
      update({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'coderline-lookup', kind: 'other', status: 'pending', rawInput: { id: '42' } }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', rawOutput: { content: 'state of 42: open' } }),
    ].map((record) => ({ dir: 'cli' as const, line: JSON.stringify(record) }));
    const recording = {
      meta: { cli: 'copilot', version: '1.0.102', scenario: 'custom-tool', what: 'a call of the bridge tool lookup', turns: [{ prompt: 'Look it up', status: 'success', text: '' }] },
      lines: [{ dir: 'host' as const, line: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'Look it up' }] } }) }, ...lines, { dir: 'cli' as const, line: JSON.stringify({ jsonrpc: '2.0', id: 3, result: { stopReason: 'end_turn' } }) }],
    };
    const named = replayLive('copilot', recording, { opts: { tools: [lookup] } }).flat();
    expect(named.find((event) => event.type === 'tool_use')).toMatchObject({ name: 'lookup', tool: bridged });
    expect(replayLive('copilot', recording).flat().find((event) => event.type === 'tool_use')).toMatchObject({ name: 'other' });
  });
});
