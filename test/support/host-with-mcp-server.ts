// A host program for the host-exit test of a fronted MCP server: a tool bridge fronting the fixture's
// stdio server (one that outlives its stdin), never closed. Prints "ready" once the server listed its
// tools; the test then SIGKILLs this process. `marker` is an argument the server ignores, to find it.
import { startToolBridge } from '../../src/core/tools/tool-bridge.js';

const [fixture, marker] = process.argv.slice(2) as [string, string];
const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
await startToolBridge({
  tools: [],
  runSignal: new AbortController().signal,
  mcpServers: { entries: [['fixture', { command: process.execPath, args: [fixture, marker], env: { FIXTURE_MARKER_FILE: '/dev/null', FIXTURE_LINGER: '1' } }]], context: { env, cwd: process.cwd() } },
});
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);
