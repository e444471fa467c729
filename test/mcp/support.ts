// Shared by the mcpServers suites: the fixture server's program, what the model must call to reach its
// tool on each CLI, and the marker lines the tool wrote.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProviderName } from '../../src/events.js';
import type { ScriptStep as Step } from '../../src/testing/index.js';
import { codexToolSearch } from '../tools/support.js';

export const fixtureProgram = fileURLToPath(new URL('../fixtures/mcp-server.mjs', import.meta.url));

/** What the model must call to reach tool `write_marker` of server `server`, per CLI (Codex searches for it first). */
export const callSteps: Record<ProviderName, (server: string, input: unknown) => Step[]> = {
  claude: (server, input) => [{ toolCalls: [{ name: `mcp__${server}__write_marker`, input }] }],
  codex: (server, input) => [{ toolCalls: [codexToolSearch('write_marker')] }, { toolCalls: [{ name: 'write_marker', namespace: `mcp__${server}`, input }] }],
  copilot: (server, input) => [{ toolCalls: [{ name: `${server}-write_marker`, input }] }],
  pi: (server, input) => [{ toolCalls: [{ name: `mcp__${server}__write_marker`, input }] }],
  gemini: (server, input) => [{ toolCalls: [{ name: `mcp_${server}_write_marker`, input }] }],
  opencode: (server, input) => [{ toolCalls: [{ name: `${server}_write_marker`, input }] }],
};

/** The lines the fixture's tool appended to `file` (none when it never ran). */
export const markers = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown) : []);
