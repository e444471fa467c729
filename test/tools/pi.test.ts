// Custom tools through the real `pi` (1.6.0, on the Node 22 of test/runtime/node22) and the fake
// chat-completions server: a temp extension registers the SDK's MCP bridge with pi's built-in MCP
// support, the model calls the tool, the handler runs, and its result reaches the next model call.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { piBridgedToolNames } from '../../src/adapters/pi/translate.js';
import { run, tool, type SharedStartOpts } from '../../src/index.js';
import { startFakeChat, type FakeChatServer } from '../../src/testing/openai-chat.js';
import { createPiEnv } from '../../src/testing/pi-env.js';
import type { Script } from '../../src/testing/script.js';
import { abortWhileHandlerRuns, flakyTool, ticketTool } from './support.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';
import { pidsWorkingIn } from '../support/processes.js';


async function setup(script: Script): Promise<{ server: FakeChatServer; opts: SharedStartOpts }> {
  const server = await startFakeChat(script);
  const env = await createPiEnv({ serverUrl: server.url });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-tools-pi-'));
  cleanupAfterTest(() => server.close(), () => env.cleanup(), () => rm(cwd, { recursive: true, force: true }));
  return { server, opts: { ...env.opts, workingDirectory: cwd } };
}

interface ChatBody {
  messages: Array<{ role: string; content: unknown; tool_call_id?: string }>;
  tools?: Array<{ function: { name: string; description?: string } }>;
}
const bodyOf = (server: FakeChatServer, index: number) => server.modelRequests[index]?.body as ChatBody;
/** The tool results the CLI sent back to the model in request `index`. */
const toolResultsSent = (server: FakeChatServer, index: number) => JSON.stringify(bodyOf(server, index).messages.filter((m) => m.role === 'tool'));
const toolsDeclared = (server: FakeChatServer, index: number) => (bodyOf(server, index).tools ?? []).map((t) => t.function.name).sort();
const callTicket = (input: unknown) => ({ toolCalls: [{ name: 'mcp__coderline__lookup_ticket', input }] });

/** The secret a process of the run in `cwd` was started with (removing a variable later does not change this view). */
function secretOfRunIn(cwd: string): string | undefined {
  for (const pid of pidsWorkingIn(cwd)) {
    try {
      const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((line) => line.startsWith('CODERLINE_TOOL_BRIDGE_SECRET='));
      if (entry) return entry.slice(entry.indexOf('=') + 1);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/** A wrapper around pi that records the argv of the run (not of the version check) in `argvFile`. */
async function recordingPi(dir: string, pi: string): Promise<{ executablePath: string; argvFile: string }> {
  const executablePath = join(dir, 'pi-recording');
  const argvFile = join(dir, 'argv.txt');
  await writeFile(executablePath, `#!/bin/sh\ncase "$1" in --version) ;; *) printf '%s\\n' "$@" > '${argvFile}' ;; esac\nexec '${pi}' "$@"\n`, { mode: 0o755 });
  return { executablePath, argvFile };
}

describe('custom tools with pi (real binary)', () => {
  it('the model calls the tool: parsed input, the result reaches the model, events use the tool\'s name; bash does not see the secret', async () => {
    const { server, opts } = await setup([
      { toolCalls: [{ name: 'bash', input: { command: 'echo "secret:[${CODERLINE_TOOL_BRIDGE_SECRET:-unset}]"' } }] },
      callTicket({ id: '42' }),
      { text: 'Ticket 42 is open.' },
    ]);
    const calls: Parameters<typeof ticketTool>[0] = [];
    const result = await run(piAdapter, 'What is the state of ticket 42?', { ...opts, tools: [ticketTool(calls)], collectEvents: true });

    expect(result).toMatchObject({ status: 'success', text: 'Ticket 42 is open.' });
    expect(calls.map((call) => call.input)).toEqual([{ id: '42' }]);
    // Declared up front (direct exposure) with the tool's description, next to pi's own tools.
    const declared = bodyOf(server, 0).tools?.find((t) => t.function.name === 'mcp__coderline__lookup_ticket');
    expect(declared?.function.description).toBe('Looks up a ticket by id and tells its state');
    // The extension took the secret out of pi's environment: commands pi runs do not inherit it.
    expect(toolResultsSent(server, 1)).toContain('secret:[unset]');
    expect(toolResultsSent(server, 2)).toContain('ticket 42: open');

    const uses = ofType(result.events, 'tool_use');
    expect(uses.map((use) => use.name)).toEqual(['bash', 'lookup_ticket']);
    expect(uses[0]?.extra?.cliToolName).toBeUndefined();
    expect(uses[0]).toMatchObject({ tool: { kind: 'shell', name: 'bash' } });
    expect(uses[1]).toMatchObject({ name: 'lookup_ticket', input: { id: '42' }, extra: { cliToolName: 'mcp__coderline__lookup_ticket' }, tool: { kind: 'mcp', name: 'lookup_ticket', server: 'coderline' } });
    const results = ofType(result.events, 'tool_result');
    expect(results[1]).toMatchObject({
      id: uses[1]?.id,
      name: 'lookup_ticket',
      output: 'ticket 42: open',
      isError: false,
      extra: { cliToolName: 'mcp__coderline__lookup_ticket', details: { server: 'coderline', tool: 'lookup_ticket' } },
    });
  });

  it('an allowlist (plan mode) keeps the run\'s tools, and a name pi rewrites (- → _) maps back', async () => {
    const closed: string[] = [];
    const closeTicket = tool({
      name: 'close-ticket',
      description: 'Closes a ticket',
      input: z.object({ id: z.string() }),
      handler: ({ id }) => {
        closed.push(id);
        return `closed ${id}`;
      },
    });
    const { server, opts } = await setup([{ toolCalls: [{ name: 'mcp__coderline__close_ticket', input: { id: '9' } }] }, { text: 'Closed.' }]);
    const result = await run(piAdapter, 'Close ticket 9', { ...opts, tools: [closeTicket], permissionPolicy: { mode: 'plan' }, collectEvents: true });

    expect(result).toMatchObject({ status: 'success', text: 'Closed.' });
    expect(closed).toEqual(['9']);
    expect(toolsDeclared(server, 0)).toEqual(['find', 'grep', 'ls', 'mcp__coderline__close_ticket', 'read']);
    expect(ofType(result.events, 'tool_use')[0]).toMatchObject({ name: 'close-ticket', extra: { cliToolName: 'mcp__coderline__close_ticket' } });
    expect(ofType(result.events, 'tool_result')[0]).toMatchObject({ name: 'close-ticket', output: 'closed 9', isError: false });
  });

  it('a throwing handler and invalid input are failed tool results the model sees (also with piNoExtensions)', async () => {
    const flaky = flakyTool();
    const calls: Parameters<typeof ticketTool>[0] = [];
    const { server, opts } = await setup([
      { toolCalls: [{ name: 'mcp__coderline__flaky', input: {} }, { name: 'mcp__coderline__lookup_ticket', input: { id: 'x' } }] },
      { text: 'Both failed.' },
    ]);
    const result = await run(piAdapter, 'Try both', { ...opts, tools: [flaky, ticketTool(calls)], piNoExtensions: true, collectEvents: true });

    expect(result).toMatchObject({ status: 'success', text: 'Both failed.' });
    expect(calls).toEqual([]);
    const results = ofType(result.events, 'tool_result');
    expect(results.map((event) => [event.name, event.isError])).toEqual(expect.arrayContaining([['flaky', true], ['lookup_ticket', true]]));
    expect(results.find((event) => event.name === 'flaky')?.output).toContain('ticket database unreachable');
    expect(toolResultsSent(server, 1)).toContain('ticket database unreachable');
    // pi checks the arguments against the tool's JSON Schema itself, before the bridge would.
    expect(toolResultsSent(server, 1)).toMatch(/Validation failed for tool \\"mcp__coderline__lookup_ticket\\":.*id: expected to match/);
  });

  it('abort while a handler runs: the secret is in neither argv nor the extension; the signal fires, the run is cancelled, no process or server is left', async () => {
    const { opts } = await setup([callTicket({ id: '7' }), { text: 'never reached' }]);
    const { executablePath, argvFile } = await recordingPi(opts.workingDirectory!, opts.executablePath!);
    let extensionFile: string | undefined;
    await abortWhileHandlerRuns(
      (tools, signal) => run(piAdapter, 'Look up ticket 7', { ...opts, executablePath, tools, signal }),
      () => {
        const argv = readFileSync(argvFile, 'utf8').split('\n');
        extensionFile = argv.find((arg) => arg.endsWith('coderline-tool-bridge.mjs'));
        expect(argv).toEqual(expect.arrayContaining(['-e', extensionFile, '-e', 'builtin:mcp']));
        const extension = readFileSync(extensionFile!, 'utf8');
        const secret = secretOfRunIn(opts.workingDirectory!);
        expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(argv.join(' ')).not.toContain(secret);
        expect(extension).not.toContain(secret);
        const bridgeUrl = /url: "(http:\/\/127\.0\.0\.1:\d+\/[^"]*)"/.exec(extension)?.[1];
        expect(bridgeUrl).toBeDefined();
        return bridgeUrl!;
      },
    );
    expect(pidsWorkingIn(opts.workingDirectory!)).toEqual([]);
    // The extension file went with the run's temp dir.
    expect(existsSync(extensionFile!)).toBe(false);
  });
});

describe('pi\'s names for custom tools', () => {
  it('sanitized, and hashed when too long or when two tools sanitize alike (as pi 1.6.0 declared them)', () => {
    expect(piBridgedToolNames('coderline', ['lookup_ticket', 'close-ticket', 'a'.repeat(60), 'x-y', 'x_y'])).toEqual([
      'mcp__coderline__lookup_ticket',
      'mcp__coderline__close_ticket',
      'mcp__coderline__aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_93b2ec7d',
      'mcp__coderline__x_y_0ba3e768',
      'mcp__coderline__x_y_bce357d5',
    ]);
  });
});
