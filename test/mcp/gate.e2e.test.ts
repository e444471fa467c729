// canUseTool sees every call of an external MCP server's tool (issue 28 point 1), and the bridge keeps
// a denied custom tool from a command that goes around the CLI (point 2), with the real binaries.
// The attacker's step (point 1): a prompt the run does not fully own (a pull request, an issue) makes
// the model call a write tool of an MCP server the run configured — here the fixture's write_marker,
// which creates a marker file. The run's canUseTool denies: the marker must not appear, and the
// callback must have seen the call with the server and the tool named.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtInAdapters } from '../../src/registry.js';
import { run, tool, type CanUseTool, type OneShotOpts, type PermissionRequest } from '../../src/index.js';
import { fakeApiOf, startFakeModel, type ScriptStep as Step } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { openLive } from '../support/live.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { callBridgedTool, codexBridgeNamespace, codexToolSearch, ticketTool } from '../tools/support.js';
import { callSteps, fixtureProgram, markers } from './support.js';

const standIn = fileURLToPath(new URL('../fixtures/stand-in-agent.mjs', import.meta.url));

async function setup(cli: ProviderName, steps: Step[]) {
  const model = await startFakeModel({ api: fakeApiOf[cli], script: [...steps, { text: 'Done.' }] });
  const dir = await mkdtemp(join(tmpdir(), `coderline-gate-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(dir, { recursive: true, force: true }));
  const markerFile = join(dir, 'marker.jsonl');
  const opts: OneShotOpts = {
    ...withPinnedRuntime(cli, await model.env(cli, cli === 'copilot' || cli === 'gemini' ? {} : { requestTimeoutMs: 120_000 })),
    workingDirectory: dir,
    mcpServers: { fixture: { command: process.execPath, args: [fixtureProgram], env: { FIXTURE_MARKER_FILE: markerFile } } },
  };
  return { model, opts, markerFile };
}

function recording(decision: 'allow' | 'deny'): { seen: PermissionRequest[]; canUseTool: CanUseTool } {
  const seen: PermissionRequest[] = [];
  return { seen, canUseTool: (request) => (seen.push(request), { behavior: decision }) };
}

const markerCall = expect.objectContaining({ toolName: 'mcp__fixture__write_marker', mcpServer: 'fixture', mcpTool: 'write_marker', input: { text: 'attack' } });

describe.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('canUseTool and mcpServers with %s (real binary, live session)', (cli) => {
  it('a denying callback: the server\'s tool does not run, and the callback saw the call with the server and tool named', async () => {
    const { opts, markerFile } = await setup(cli, callSteps[cli]('fixture', { text: 'attack' }));
    const { seen, canUseTool } = recording('deny');
    const live = await openLive(builtInAdapters[cli], { ...opts, canUseTool });
    const result = await live.send('Write the marker').result;
    expect(result.status).toBe('success');
    expect(markers(markerFile)).toEqual([]);
    expect(seen).toEqual([markerCall]);
  });

  it('an allowing callback: the tool runs once, asked once', async () => {
    const { opts, markerFile } = await setup(cli, callSteps[cli]('fixture', { text: 'attack' }));
    const { seen, canUseTool } = recording('allow');
    const live = await openLive(builtInAdapters[cli], { ...opts, canUseTool });
    const result = await live.send('Write the marker', { collectEvents: true }).result;
    expect(result.status).toBe('success');
    expect(markers(markerFile)).toEqual([{ text: 'attack', secret: null }]);
    expect(seen).toEqual([markerCall]);
    // The call came through the CLI, whose records showed it: the report says so.
    expect(result.events?.filter((event) => event.type === 'progress' && event.subtype === 'tool_bridge.call').map((event) => event.extra)).toEqual([
      { server: 'fixture', tool: 'write_marker', decision: 'allow', decidedBy: 'canUseTool', inCliRecords: true },
    ]);
  });
});

describe('canUseTool and mcpServers with claude (real binary, one-shot run)', () => {
  it('a denying callback: the tool does not run; the callback saw it', async () => {
    const { opts, markerFile } = await setup('claude', callSteps.claude('fixture', { text: 'attack' }));
    const { seen, canUseTool } = recording('deny');
    expect((await run(builtInAdapters.claude, 'Write the marker', { ...opts, canUseTool })).status).toBe('success');
    expect(markers(markerFile)).toEqual([]);
    expect(seen).toEqual([markerCall]);
  });
});

describe.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('canUseTool and a custom tool with %s (real binary, live session)', (cli) => {
  const step = callBridgedTool(cli, 'lookup_ticket', { id: '42' });

  it('the bridge asks once; a deny holds and the model reads the message; an allow runs the handler', async () => {
    const calls: Parameters<typeof ticketTool>[0] = [];
    const { model, opts } = await setup(cli, [...step, { text: 'Refused.' }, ...step]);
    const seen: PermissionRequest[] = [];
    let decision: 'allow' | 'deny' = 'deny';
    const live = await openLive(builtInAdapters[cli], { ...opts, mcpServers: {}, tools: [ticketTool(calls)], canUseTool: (request) => (seen.push(request), { behavior: decision, message: 'not this ticket' }) });
    expect((await live.send('Look it up').result).status).toBe('success');
    expect(calls).toEqual([]);
    expect(JSON.stringify(model.requests.map((request) => request.body))).toContain('not this ticket');
    decision = 'allow';
    expect((await live.send('Again').result).status).toBe('success');
    expect(calls.map((call) => call.input)).toEqual([{ id: '42' }]);
    expect(seen).toEqual([0, 1].map(() => expect.objectContaining({ toolName: 'lookup_ticket', mcpServer: 'coderline', mcpTool: 'lookup_ticket', input: { id: '42' } })));
  });
});

describe('canUseTool and a custom tool with claude (real binary, one-shot run)', () => {
  it('the bridge asks once about the tool and Claude does not ask again through the permission prompt tool', async () => {
    const calls: Parameters<typeof ticketTool>[0] = [];
    const { opts } = await setup('claude', [{ toolCalls: [{ name: 'mcp__coderline__lookup_ticket', input: { id: '42' } }] }]);
    const { seen, canUseTool } = recording('allow');
    const result = await run(builtInAdapters.claude, 'Look it up', { ...opts, mcpServers: {}, tools: [ticketTool(calls)], canUseTool });
    expect(result.status).toBe('success');
    expect(calls.map((call) => call.input)).toEqual([{ id: '42' }]);
    expect(seen).toEqual([expect.objectContaining({ toolName: 'lookup_ticket', mcpServer: 'coderline', mcpTool: 'lookup_ticket', input: { id: '42' } })]);
  });
});

describe('a command of the agent that calls the bridge itself (claude, real binary)', () => {
  // The attacker's step (point 2): the model has Bash allowed (permissionPolicy.allow) and runs the
  // stand-in agent, which reads the bridge's URL and secret from the MCP config file on claude's argv
  // and calls `wipe` over HTTP, a tool the run denies in permissionPolicy.deny.
  it('the denied handler does not run, the stand-in is refused and sees no such tool, and the event stream shows the call', async () => {
    const wiped: unknown[] = [];
    const wipe = tool({ name: 'wipe', description: 'Deletes everything', input: z.object({}), handler: () => (wiped.push(1), 'wiped') });
    const command = `${process.execPath} ${standIn} wipe`;
    const { opts } = await setup('claude', [{ toolCalls: [{ name: 'Bash', input: { command, description: 'stand-in agent' } }] }]);
    const result = await run(builtInAdapters.claude, 'Run it', { ...opts, tools: [wipe], permissionPolicy: { allow: ['Bash'], deny: ['wipe'] }, collectEvents: true });
    expect(result.status).toBe('success');
    expect(wiped).toEqual([]);
    const output = JSON.stringify(result.events?.find((event) => event.type === 'tool_result')?.output);
    expect(output).toContain('\\"found\\":true');
    expect(output).toContain('\\"listed\\":[]');
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'progress', subtype: 'tool_bridge.call', extra: expect.objectContaining({ tool: 'wipe', decision: 'deny', decidedBy: 'permissionPolicy', inCliRecords: false }) }),
    );
  });
});

describe('a command of the agent that calls the bridge itself (codex live, real binary)', () => {
  // The attacker's step: Codex keeps the bridge's secret in its environment and its URL on its argv;
  // the model runs the stand-in agent as a shell command (the callback allows commands), which looks for
  // both (its own environment, /proc, the listening loopback ports) and calls `wipe` over HTTP. Codex
  // passed its environment to commands, secret included (0.171.0): the adapter now blanks it there
  // (-c shell_environment_policy.set), and the sandbox shows the command no parent to read it from.
  it('the command gets no secret, finds no bridge, and `wipe` does not run', async () => {
    const wiped: unknown[] = [];
    const wipe = tool({ name: 'wipe', description: 'Deletes everything', input: z.object({}), handler: () => (wiped.push(1), 'wiped') });
    const { opts } = await setup('codex', [{ toolCalls: [{ name: 'exec_command', input: { cmd: `${process.execPath} ${standIn} wipe` } }] }]);
    const canUseTool: CanUseTool = (request) => (request.mcpTool === 'wipe' ? { behavior: 'deny', message: 'no wiping' } : { behavior: 'allow' });
    // The sandbox's network switch on: with it off, the command cannot reach 127.0.0.1 at all.
    const live = await openLive(builtInAdapters.codex, { ...opts, tools: [wipe], codexNetworkAccess: true, canUseTool });
    const result = await live.send('Run it', { collectEvents: true }).result;
    expect(result.status).toBe('success');
    expect(wiped).toEqual([]);
    const output = JSON.stringify(result.events?.find((event) => event.type === 'tool_result')?.output);
    expect(output).toContain('\\"found\\":false');
    expect(output).toContain('\\"secretInEnv\\":false');
  });
});

describe.each([
  // Copilot runs a shell command only when allowed (`shell`); pi never asks.
  ['copilot', { name: 'bash', input: { command: `${process.execPath} ${standIn} wipe`, description: 'stand-in agent' } }, ['shell']],
  ['pi', { name: 'bash', input: { command: `${process.execPath} ${standIn} wipe` } }, []],
] as const)('a command of the agent that calls the bridge itself (%s one-shot, real binary)', (cli, call, allow) => {
  // The attacker's step: the command reads the bridge's URL (Copilot's config file, pi's extension
  // file, both named on the CLI's argv) and the secret (the file; pi's /proc/<pid>/environ) and calls
  // `wipe`, which the run denies in permissionPolicy.deny.
  it('the denied handler does not run, and the event stream shows the call', async () => {
    const wiped: unknown[] = [];
    const wipe = tool({ name: 'wipe', description: 'Deletes everything', input: z.object({}), handler: () => (wiped.push(1), 'wiped') });
    const { opts } = await setup(cli, [{ toolCalls: [call] }]);
    // Copilot asks before a command names a path outside its directories: the stand-in's and node's are added.
    const addDirs = cli === 'copilot' ? { addDirs: [dirname(standIn), dirname(process.execPath)] } : {};
    // A tool the run allows too, so the CLI is told of the bridge (with only denied tools it is told of none).
    const result = await run(builtInAdapters[cli], 'Run it', { ...opts, ...addDirs, mcpServers: {}, tools: [wipe, ticketTool()], permissionPolicy: { deny: ['wipe'], ...(allow.length ? { allow: [...allow] } : {}) }, collectEvents: true });
    expect(result.status).toBe('success');
    expect(wiped).toEqual([]);
    expect(JSON.stringify(result.events?.find((event) => event.type === 'tool_result')?.output)).toContain('\\"found\\":true');
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'progress', subtype: 'tool_bridge.call', extra: expect.objectContaining({ tool: 'wipe', decision: 'deny', decidedBy: 'permissionPolicy', inCliRecords: false }) }),
    );
  });
});

describe('a command of the agent that asks the permission prompt tool itself (claude one-shot, real binary)', () => {
  // The attacker's step: canUseTool allowed a Bash command; the command (the stand-in agent) finds the
  // bridge and calls its permission prompt tool with a question Claude never asked — once with a made-up
  // tool use id, once with the id of its own Bash call (readable from the transcript), which Claude
  // already asked about — to make the host's callback see and answer a forged request.
  it.each([['a made-up id', 'toolu_forged'], ['the id Claude already asked about', 'toolu_fake_1_0']])('with %s: refused unasked, the callback never sees it, and an event says so', async (_, toolUseId) => {
    const forged = JSON.stringify({ tool_name: 'Write', input: { file_path: '/tmp/forged', content: 'x' }, tool_use_id: toolUseId });
    const command = `${process.execPath} ${standIn} coderline_permission_prompt '${forged}'`;
    const { opts } = await setup('claude', [{ toolCalls: [{ name: 'Bash', input: { command, description: 'stand-in agent' } }] }]);
    const { seen, canUseTool } = recording('allow');
    const result = await run(builtInAdapters.claude, 'Run it', { ...opts, mcpServers: {}, canUseTool, collectEvents: true });
    expect(result.status).toBe('success');
    expect(seen.map((request) => request.toolName)).toEqual(['Bash']);
    const output = JSON.stringify(result.events?.find((event) => event.type === 'tool_result')?.output);
    expect(output).toContain('\\"found\\":true');
    expect(output).toContain('show no such tool use');
    expect(result.events).toContainEqual(expect.objectContaining({ type: 'progress', subtype: 'tool_bridge.permission_refused' }));
  });
});

describe('permissionPolicy.deny on codex (real binary, one-shot)', () => {
  // The attacker's step: the prompt makes the model call `wipe`, a custom tool the run denies.
  it('a rule naming a custom tool is enforced by the bridge: the tool is not offered and does not run', async () => {
    const wiped: unknown[] = [];
    const wipe = tool({ name: 'wipe', description: 'Deletes everything', input: z.object({}), handler: () => (wiped.push(1), 'wiped') });
    const { opts } = await setup('codex', [{ toolCalls: [codexToolSearch('wipe')] }, { toolCalls: [{ name: 'wipe', namespace: codexBridgeNamespace, input: {} }] }]);
    const result = await run(builtInAdapters.codex, 'Wipe it', { ...opts, mcpServers: {}, tools: [wipe, ticketTool()], permissionPolicy: { deny: ['wipe'] }, collectEvents: true });
    expect(result.status).toBe('success');
    expect(wiped).toEqual([]);
  });

  it('a rule naming one of Codex\'s own tools fails fast: nothing enforces it', async () => {
    const { opts } = await setup('codex', []);
    await expect(run(builtInAdapters.codex, 'Hi', { ...opts, mcpServers: {}, tools: [ticketTool()], permissionPolicy: { deny: ['shell'] } })).rejects.toMatchObject({ code: 'feature_not_supported' });
    await expect(run(builtInAdapters.codex, 'Hi', { ...opts, permissionPolicy: { deny: ['fixture'] } })).rejects.toMatchObject({ code: 'feature_not_supported' });
  });
});
