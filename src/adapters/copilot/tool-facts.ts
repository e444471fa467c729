// What Copilot's tools are, portably (`tool` on tool_use, tool_result and canUseTool requests). Two
// vocabularies: prompt mode's JSON records name the tool (`bash`, `view` …; the model request of
// 1.0.102 lists them with their inputs), ACP names only a kind (`execute`, `read` …) and gives the
// same tool's input as `rawInput`, so both read the same input fields.
import type { ToolCatalog, ToolRule } from '../../core/contract/tool-catalog.js';
import { asJsonObject, stringOf } from '../../schema/json.js';

const other: ToolRule = { kind: 'other' };
const shell: ToolRule = { kind: 'shell', command: ['command'] };
const search: ToolRule = { kind: 'search', query: ['pattern'], paths: ['paths[]', 'path'] };
const note = '`command` is the bash input as the model wrote it (no wrapper); `paths` as given (`view`, `create` and `edit` take absolute paths).';

export const copilotToolCatalog: ToolCatalog = {
  source: '`--output-format json` tool names (`tool.execution_start` `toolName`; also the session store)',
  note,
  tools: {
    bash: shell,
    write_bash: { kind: 'shell' },
    read_bash: other,
    stop_bash: other,
    list_bash: other,
    view: { kind: 'read', paths: ['path'] },
    create: { kind: 'write', paths: ['path'] },
    edit: { kind: 'edit', paths: ['path'] },
    grep: search,
    glob: search,
    web_fetch: { kind: 'fetch', url: ['url'] },
    task: { kind: 'task' },
    read_agent: other,
    list_agents: other,
    write_agent: other,
    sql: other,
    session_store_sql: other,
    skill: other,
    fetch_copilot_cli_documentation: other,
  },
  // `tool.execution_start` names the server of an MCP tool (the name is `<server>-<tool>`).
  mcp: { spelling: '`<server>-<tool>`, with `mcpServerName` on the record', server: (_name, raw) => stringOf(asJsonObject(asJsonObject(raw)?.data)?.mcpServerName) },
};

export const copilotAcpToolCatalog: ToolCatalog = {
  source: 'ACP `tool_call` / `session/request_permission` kinds (the event\'s `name`; `rawInput` is the tool\'s input)',
  note,
  tools: {
    execute: shell,
    read: { kind: 'read', paths: ['path'] },
    edit: { kind: 'edit', paths: ['path'] },
    delete: { kind: 'write', paths: ['path'] },
    move: { kind: 'edit', paths: ['path', 'source', 'destination'] },
    search,
    fetch: { kind: 'fetch', url: ['url'] },
    think: other,
    switch_mode: other,
    other,
  },
};
