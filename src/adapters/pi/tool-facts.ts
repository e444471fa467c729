// What pi's tools are, portably (`tool` on tool_use, tool_result and canUseTool requests): its seven
// built-in tools with the inputs their schemas in the package (1.6.0) declare; `read, bash, edit,
// write` are on by default, `grep, find, ls` with `--tools`.
import type { ToolCatalog } from '../../core/contract/tool-catalog.js';
import { serverOfMcpName } from '../../core/translate/tool-facts.js';

const search = { kind: 'search', query: ['pattern'], paths: ['path'] } as const;

export const piToolCatalog: ToolCatalog = {
  source: '`--mode json` / rpc `tool_execution_*` tool names (also the session store and the permission extension\'s questions)',
  note: '`command` is the bash input as the model wrote it (no wrapper); `paths` as given (relative to the working directory or absolute).',
  tools: {
    bash: { kind: 'shell', command: ['command'] },
    read: { kind: 'read', paths: ['path'] },
    write: { kind: 'write', paths: ['path'] },
    edit: { kind: 'edit', paths: ['path'] },
    grep: search,
    find: search,
    ls: { kind: 'list', paths: ['path'] },
  },
  // MCP tools exposed directly (the tool bridge's too) are `mcp__<server>__<tool>`, squashed to [A-Za-z0-9_].
  mcp: { spelling: '`mcp__<server>__<tool>` (characters outside `[A-Za-z0-9_]` become `_`)', server: (name) => serverOfMcpName(name) },
};
