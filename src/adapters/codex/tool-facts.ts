// What Codex's tools are, portably (`tool` on tool_use, tool_result and canUseTool requests). Two
// vocabularies: the item types `exec --json` and the app-server print (and name in their approval
// questions), and the model's own function names, which only the session store (rollout) keeps.
// Measured on 0.171.0 (fixtures/codex/0.171.0; the model request's tool list for the function names).
import type { ToolCatalog } from '../../core/contract/tool-catalog.js';
import { serverOfMcpName } from '../../core/translate/tool-facts.js';

const mcp = { spelling: '`mcp_tool_call` items, named `mcp__<server>__<tool>` from the item\'s `server` and `tool`', server: (name: string) => serverOfMcpName(name) };

export const codexItemToolCatalog: ToolCatalog = {
  source: '`exec --json` and app-server items (`command_execution` / `commandExecution` …) and app-server approval requests',
  note: "`command` is the line Codex runs, with its shell wrapper (`/bin/bash -lc '…'`); reads, searches and listings are shell commands too (kind `shell`). `paths` of a file change are absolute.",
  tools: {
    command_execution: { kind: 'shell', command: ['command'] },
    file_change: { kind: 'edit', paths: ['changes[].path'] },
    web_search: { kind: 'web_search', query: ['query', 'action.query', 'action.queries[]'], url: ['action.url'] },
  },
  mcp,
};

export const codexFunctionToolCatalog: ToolCatalog = {
  source: 'the model\'s function names, as the session store (rollout `function_call` / `custom_tool_call`) keeps them',
  note: '`command` is the command as the model wrote it (no shell wrapper); `paths` as given.',
  tools: {
    exec_command: { kind: 'shell', command: ['cmd'] },
    shell: { kind: 'shell', command: ['command'] },
    shell_command: { kind: 'shell', command: ['command'] },
    write_stdin: { kind: 'shell' },
    apply_patch: { kind: 'edit' },
    view_image: { kind: 'read', paths: ['path'] },
    web_search: { kind: 'web_search', query: ['query'] },
    update_plan: { kind: 'plan' },
    request_user_input: { kind: 'ask' },
    tool_search: { kind: 'other' },
    get_goal: { kind: 'other' },
    create_goal: { kind: 'other' },
    update_goal: { kind: 'other' },
  },
  mcp: { ...mcp, spelling: '`mcp__<server>__<tool>`' },
};
