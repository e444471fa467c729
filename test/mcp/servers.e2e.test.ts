// External MCP servers (`mcpServers`) through each real CLI: a real MCP server (test/fixtures/mcp-server.mjs,
// on stdio and on streamable HTTP) that the fake model calls. The host connects to the server and the
// tool bridge fronts it, so the CLI reaches it through the bridge. The tool writes a marker file, so the
// test sees that it was called, with the env or headers it was given, and that the result reached the model.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInAdapters } from '../../src/registry.js';
import { run, type OneShotOpts } from '../../src/index.js';
import { startFakeModel, fakeApiOf, type ScriptStep as Step } from '../../src/testing/index.js';
import type { ProviderName } from '../../src/events.js';
import { startHttpFixture } from '../fixtures/mcp-server.mjs';
import { ticketTool } from '../tools/support.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { processTable } from '../support/processes.js';
import { callSteps, fixtureProgram, markers } from './support.js';

async function setup(cli: ProviderName, steps: Step[]) {
  const model = await startFakeModel({ api: fakeApiOf[cli], script: [...steps, { text: 'Done.' }] });
  const dir = await mkdtemp(join(tmpdir(), `coderline-mcp-${cli}-`));
  cleanupAfterTest(() => model.close(), () => rm(dir, { recursive: true, force: true }));
  const opts: OneShotOpts = { ...withPinnedRuntime(cli, await model.env(cli)), workingDirectory: dir };
  return { model, dir, opts, markerFile: join(dir, 'marker.jsonl') };
}

describe.each(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const)('mcpServers with %s (real binary)', (cli) => {
  it('a stdio server: the host starts it with its env, the model calls its tool through the bridge, the result reaches the model; the server ends with the run', async () => {
    const { model, dir, opts, markerFile } = await setup(cli, callSteps[cli]('fixture', { text: 'hello-stdio' }));
    // The run's directory as an argument the fixture ignores: it tells this test's server in the process table.
    const result = await run(builtInAdapters[cli], 'Write the marker', {
      ...opts,
      mcpServers: { fixture: { command: process.execPath, args: [fixtureProgram, dir], env: { FIXTURE_MARKER_FILE: markerFile, FIXTURE_SECRET: '${HOME} $x !cmd' } } },
      collectEvents: true,
    });
    // The bridge reported the call, as one the CLI's records showed.
    expect(result.events?.filter((event) => event.type === 'progress' && event.subtype === 'tool_bridge.call').map((event) => event.extra)).toEqual([
      { server: 'fixture', tool: 'write_marker', decision: 'allow', decidedBy: 'none', inCliRecords: true },
    ]);
    expect(processTable().filter(({ args }) => args.includes(dir))).toEqual([]);
    expect(result).toMatchObject({ status: 'success', text: 'Done.' });
    // The env value arrives as given: no CLI expanded `${HOME}` or ran `!cmd` (no CLI sees it at all now).
    expect(markers(markerFile)).toEqual([{ text: 'hello-stdio', secret: '${HOME} $x !cmd' }]);
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('marker written: hello-stdio');
  });

  it('an HTTP server with headers, next to the custom tools: the host sends the headers, the model calls its tool through the bridge', async () => {
    const calls: Parameters<typeof ticketTool>[0] = [];
    const token = `token-${process.pid}-${cli}`;
    const steps = [...callSteps[cli]('fixture_http', { text: 'hello-http' })];
    const { model, opts, markerFile } = await setup(cli, steps);
    const fixture = await startHttpFixture({ markerFile, token });
    cleanupAfterTest(() => fixture.close());
    const result = await run(builtInAdapters[cli], 'Write the marker', {
      ...opts,
      tools: [ticketTool(calls)],
      mcpServers: { fixture_http: { url: fixture.url, headers: { 'x-fixture-token': token } } },
    });
    expect(result).toMatchObject({ status: 'success', text: 'Done.' });
    expect(markers(markerFile)).toEqual([{ text: 'hello-http', secret: token }]);
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('marker written: hello-http');
  });
});
