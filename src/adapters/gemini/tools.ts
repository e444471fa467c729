// What Gemini CLI's tools are, portably (`tool` on tool_use and tool_result): its built-ins with the
// inputs 0.61.0 offers the model, older names and fields (search_file_content, `path`, `absolute_path`)
// kept for older versions. MCP tools are `mcp_<server>_<tool>`; a server name may hold `_`, so a
// translator that knows the run's servers resolves them (geminiToolCatalog(servers)).
import type { ToolCatalog, ToolRule } from '../../core/contract/tool-catalog.js';

const search: ToolRule = { kind: 'search', query: ['pattern'], paths: ['dir_path', 'path'] };

const tools: Readonly<Record<string, ToolRule>> = {
  run_shell_command: { kind: 'shell', command: ['command'], paths: ['dir_path', 'directory'] },
  read_file: { kind: 'read', paths: ['file_path', 'absolute_path', 'path'] },
  read_many_files: { kind: 'read', paths: ['include[]', 'paths[]'] },
  write_file: { kind: 'write', paths: ['file_path', 'absolute_path'] },
  replace: { kind: 'edit', paths: ['file_path', 'absolute_path'] },
  glob: search,
  grep_search: search,
  search_file_content: search,
  list_directory: { kind: 'list', paths: ['dir_path', 'path'] },
  web_fetch: { kind: 'fetch', url: ['url'] },
  google_web_search: { kind: 'web_search', query: ['query'] },
  write_todos: { kind: 'plan' },
  enter_plan_mode: { kind: 'plan' },
  exit_plan_mode: { kind: 'plan', paths: ['plan_filename'] },
  invoke_agent: { kind: 'task' },
  ask_user: { kind: 'ask' },
};

/** The server of `mcp_<server>_<tool>`: the longest of `servers` that fits, else the part up to the next `_`. */
export function geminiMcpServer(name: string, servers: readonly string[]): string | undefined {
  if (!name.startsWith('mcp_')) return undefined;
  const known = [...servers].sort((a, b) => b.length - a.length).find((server) => name.startsWith(`mcp_${server}_`) && name.length > server.length + 5);
  return known ?? /^mcp_([^_]+)_./.exec(name)?.[1];
}

export function geminiToolCatalog(servers: readonly string[] = []): ToolCatalog {
  return {
    source: '`-o stream-json` tool_use names (also the session store\'s toolCalls)',
    note: '`command` is the shell input as the model wrote it; `paths` as given (relative to the working directory or absolute). web_fetch takes its addresses inside a prompt in 0.61.0: no `url` then.',
    tools,
    mcp: { spelling: '`mcp_<server>_<tool>`', server: (name) => geminiMcpServer(name, servers) },
  };
}

export const geminiToolCatalogs: readonly ToolCatalog[] = [geminiToolCatalog()];
