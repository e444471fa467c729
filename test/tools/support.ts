// Shared by the custom-tool tests: a deferred promise (Node 20 has no Promise.withResolvers), the
// bridge URL a running CLI was given, the ticket tool, the abort-while-a-handler-runs check, and
// scripted calls of Codex's `tool_search` (Codex 0.171 defers MCP tools behind it).
import { readFileSync, realpathSync } from 'node:fs';
import { expect } from 'vitest';
import { z } from 'zod';
import { tool, type ProviderName, type RunResult, type Tool, type ToolCallContext } from '../../src/index.js';
import type { ScriptStep } from '../../src/testing/index.js';
import { isGroupAlive, processTable } from '../support/processes.js';

export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * The tool bridge URL a running CLI was given, found from the CLI process working in `cwd`: in its
 * argv (Codex) or in the MCP config file its argv names (Claude, Copilot). The working directory is the
 * test's own, so no other test's CLI is taken for this one.
 */
export function bridgeUrlOfCliIn(cwd: string): string {
  const found = new Set<string>();
  const candidates = processTable().filter(({ args }) => ['mcp_servers.coderline.url', '-mcp-config', 'tool-bridge.json'].some((needle) => args.includes(needle)));
  for (const { pid } of candidates) {
    try {
      if (realpathSync(`/proc/${pid}/cwd`) !== realpathSync(cwd)) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      for (const arg of argv) {
        const inline = /^mcp_servers\.coderline\.url="(.+)"$/.exec(arg)?.[1];
        const file = /^--mcp-config=(.+)$/.exec(arg)?.[1] ?? /^@(.+tool-bridge\.json)$/.exec(arg)?.[1];
        const url = inline ?? (file ? (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: { coderline: { url: string } } }).mcpServers.coderline.url : undefined);
        if (url) found.add(url);
      }
    } catch {
      // the process ended while we looked
    }
  }
  if (found.size !== 1) throw new Error(`expected one bridge URL for a CLI in ${cwd}, found ${[...found].join(', ') || 'none'}`);
  return [...found][0]!;
}

/** What a request without the bridge's secret gets: an HTTP status, or `closed` when nothing listens. */
export async function statusWithoutSecret(url: string): Promise<number | 'closed'> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(30_000) });
    return response.status;
  } catch {
    return 'closed';
  }
}

/** The ticket tool of the docs example; every call is recorded with its input and signal. */
export function ticketTool(calls: Array<{ input: { id: string }; signal: AbortSignal }> = []): Tool<{ id: string }> {
  return tool({
    name: 'lookup_ticket',
    description: 'Looks up a ticket by id and tells its state',
    input: z.object({ id: z.string().regex(/^\d+$/, 'a ticket id is digits') }),
    handler: (input, { signal }: ToolCallContext) => {
      calls.push({ input, signal });
      return { text: `ticket ${input.id}: open` };
    },
  });
}

/** A tool whose handler always throws, with the message the model must get back. */
export const flakyTool = (): Tool<Record<string, never>> =>
  tool({ name: 'flaky', description: 'Always fails', input: z.object({}), handler: () => { throw new Error('ticket database unreachable'); } });

/** A scripted call of Codex's `tool_search` (the fake Responses server sends it as a `tool_search_call` item). */
export const codexToolSearch = (query: string) => ({ name: 'tool_search', input: { query, limit: 8 } });
/** Codex exposes the bridge's tools in this namespace once `tool_search` found them. */
export const codexBridgeNamespace = 'mcp__coderline';

/**
 * Starts a run whose `lookup_ticket` handler hangs until aborted, checks that the live bridge refuses a
 * request without the secret, aborts, and checks what a user relies on: the handler's signal fired,
 * the run is cancelled, no process of the CLI and no bridge is left.
 */
export async function abortWhileHandlerRuns(
  start: (tools: Tool[], signal: AbortSignal) => Promise<RunResult<unknown, string>>,
  findBridgeUrl: () => string,
): Promise<{ result: RunResult<unknown, string>; bridgeUrl: string }> {
  const entered = deferred<AbortSignal>();
  const stuck = tool({
    name: 'lookup_ticket',
    description: 'Hangs until aborted',
    input: z.object({ id: z.string() }),
    handler: (_input, { signal }) => {
      entered.resolve(signal);
      return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    },
  });
  const controller = new AbortController();
  const pending = start([stuck], controller.signal);
  const signal = await entered.promise;
  const bridgeUrl = findBridgeUrl();
  expect(await statusWithoutSecret(bridgeUrl)).toBe(401);
  expect(signal.aborted).toBe(false);
  controller.abort();
  const result = await pending;
  expect(signal.aborted).toBe(true);
  expect(result.status).toBe('cancelled');
  expect(isGroupAlive(result.pid!)).toBe(false);
  expect(await statusWithoutSecret(bridgeUrl)).toBe('closed');
  return { result, bridgeUrl };
}

/** How each CLI's model calls the bridge's tool `name` (its own spelling of an MCP tool; Codex finds it with tool_search first). */
export function callBridgedTool(cli: ProviderName, name: string, input: unknown): ScriptStep[] {
  const spelled: Record<ProviderName, string> = {
    claude: `mcp__coderline__${name}`,
    codex: name,
    copilot: `coderline-${name}`,
    pi: `mcp__coderline__${name}`,
    gemini: `mcp_coderline_${name}`,
    opencode: `coderline_${name}`,
  };
  if (cli === 'codex') return [{ toolCalls: [codexToolSearch(name)] }, { toolCalls: [{ name, namespace: codexBridgeNamespace, input }] }];
  return [{ toolCalls: [{ name: spelled[cli], input }] }];
}
