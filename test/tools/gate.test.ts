// The tool bridge decides on the host whoever calls it (issue 28 point 2). The attacker's step: the
// agent runs as the same user as the CLI, so a command it runs can read the bridge's URL and secret
// (the CLI's argv, config file or environment) and call a tool over HTTP without the CLI. Here a
// stand-in agent (test/fixtures/stand-in-agent.mjs, a process of its own that finds the secret in its
// environment as Codex's commands do) calls a denied tool: its handler must not run, the tool is not
// listed, and the run's events show the call as one the CLI's records did not show.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TranslatedEvent } from '../../src/events.js';
import { bridgeGate, ruleNames } from '../../src/core/tools/bridge-gate.js';
import { startToolBridge, type ToolBridge } from '../../src/core/tools/tool-bridge.js';
import { tool, type CanUseTool, type PermissionRequest } from '../../src/index.js';
import type { ResolvedOpts } from '../../src/options.js';

const standIn = fileURLToPath(new URL('../fixtures/stand-in-agent.mjs', import.meta.url));
const bridges: ToolBridge[] = [];
afterEach(async () => void (await Promise.all(bridges.splice(0).map((bridge) => bridge.close()))));

const ran: string[] = [];
const named = (name: string) => tool({ name, description: name, input: z.object({}), handler: () => (ran.push(name), `${name} ran`) });
afterEach(() => void ran.splice(0));

async function gatedBridge(opts: Partial<Pick<ResolvedOpts, 'permissionPolicy' | 'allowedTools' | 'canUseTool'>>) {
  const events: TranslatedEvent[] = [];
  const gate = bridgeGate(opts as ResolvedOpts, (event) => events.push(event));
  const bridge = await startToolBridge({ tools: [named('wipe'), named('lookup')], runSignal: new AbortController().signal, gate });
  bridges.push(bridge);
  return { bridge, events, gate };
}

/** Runs the stand-in agent with the bridge's URL and secret in its environment; what it printed. */
async function standInCalls(bridge: ToolBridge, toolName: string): Promise<{ listed: string[]; result: { isError?: boolean; content: unknown } }> {
  const { stdout } = await promisify(execFile)(process.execPath, [standIn, toolName], {
    env: { PATH: process.env.PATH ?? '', CODERLINE_STAND_IN_URL: bridge.url, CODERLINE_TOOL_BRIDGE_SECRET: bridge.secret },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as never;
}

const bridgeCalls = (events: TranslatedEvent[]) => events.filter((event) => event.type === 'progress' && event.subtype === 'tool_bridge.call');

describe('the tool bridge gate, against a caller that is not the CLI', () => {
  it('permissionPolicy.deny: the stand-in does not see the tool listed, its call is refused, the handler never runs, the event says so', async () => {
    const { bridge, events, gate } = await gatedBridge({ permissionPolicy: { deny: ['wipe'] } });
    const got = await standInCalls(bridge, 'wipe');
    expect(got.listed).toEqual(['lookup']);
    expect(got.result.isError).toBe(true);
    expect(JSON.stringify(got.result.content)).toContain('denied');
    expect(ran).toEqual([]);
    await gate.settled();
    expect(bridgeCalls(events)).toEqual([
      expect.objectContaining({ kind: 'status', extra: expect.objectContaining({ server: 'coderline', tool: 'wipe', decision: 'deny', decidedBy: 'permissionPolicy', inCliRecords: false }) }),
    ]);
  });

  it('the mcp__<server>__<tool> and mcp__<server> spellings deny too', async () => {
    for (const rule of ['mcp__coderline__wipe', 'mcp__coderline']) {
      const { bridge } = await gatedBridge({ permissionPolicy: { deny: [rule] } });
      expect((await standInCalls(bridge, 'wipe')).result.isError).toBe(true);
    }
    expect(ran).toEqual([]);
  });

  it('canUseTool: the direct call is asked about with the server and tool named; a deny holds', async () => {
    const seen: PermissionRequest[] = [];
    const canUseTool: CanUseTool = (request) => (seen.push(request), { behavior: 'deny', message: 'not today' });
    const { bridge, events, gate } = await gatedBridge({ canUseTool });
    const got = await standInCalls(bridge, 'wipe');
    expect(got.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('not today') }] });
    expect(ran).toEqual([]);
    const tool = { kind: 'mcp', name: 'wipe', server: 'coderline' };
    expect(seen).toEqual([expect.objectContaining({ toolName: 'wipe', tool, mcpServer: 'coderline', mcpTool: 'wipe', input: {} })]);
    await gate.settled();
    expect(events.filter((event) => event.type === 'permission').map((event) => event.type === 'permission' && [event.phase, event.tool])).toEqual([['request', tool], ['decision', tool]]);
    expect(bridgeCalls(events)).toEqual([expect.objectContaining({ extra: expect.objectContaining({ decision: 'deny', decidedBy: 'canUseTool', inCliRecords: false }) })]);
  });

  it('allowed (allowedTools, without asking): the handler runs, and the call still shows in the events', async () => {
    let asked = 0;
    const { bridge, events, gate } = await gatedBridge({ allowedTools: ['lookup'], canUseTool: () => (asked++, { behavior: 'deny' }) });
    expect((await standInCalls(bridge, 'lookup')).result.isError).toBeFalsy();
    expect(ran).toEqual(['lookup']);
    expect(asked).toBe(0);
    await gate.settled();
    expect(bridgeCalls(events)).toEqual([expect.objectContaining({ extra: expect.objectContaining({ tool: 'lookup', decision: 'allow', decidedBy: 'permissionPolicy' }) })]);
  });

  it("a call the CLI's records showed first is marked as such", async () => {
    const { bridge, events, gate } = await gatedBridge({});
    gate.observe({ type: 'tool_use', id: 't1', name: 'lookup', input: {}, raw: null });
    await standInCalls(bridge, 'lookup');
    await gate.settled();
    expect(bridgeCalls(events)).toEqual([expect.objectContaining({ extra: expect.objectContaining({ tool: 'lookup', decision: 'allow', decidedBy: 'none', inCliRecords: true }) })]);
  });
});

describe('the rule spellings the gate takes', () => {
  const external = { server: 'github', tool: 'create_issue' };
  const custom = { server: 'coderline', tool: 'wipe' };

  it('names a tool of a server as Claude and pi write it, and as Copilot writes it', () => {
    for (const rule of ['mcp__github__create_issue', 'mcp__github', 'github(create_issue)', 'github']) expect(ruleNames(rule, external)).toBe(true);
    for (const rule of ['create_issue', 'mcp__github__create', 'mcp__git', 'github(other)', 'Bash', 'mcp__coderline__create_issue']) expect(ruleNames(rule, external)).toBe(false);
  });

  it('names a custom tool by its bare name too, and by the bridge\'s server', () => {
    for (const rule of ['wipe', 'mcp__coderline__wipe', 'mcp__coderline', 'coderline(wipe)', 'coderline']) expect(ruleNames(rule, custom)).toBe(true);
    expect(ruleNames('wip', custom)).toBe(false);
  });
});
