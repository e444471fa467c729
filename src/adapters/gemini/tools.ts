// Gemini CLI's tools as portable facts (ToolFacts), as data: which kind each built-in is and which
// input fields hold its command, paths, query or address. Names and fields as 0.61.0 offers them to
// the model; older names (search_file_content, `path`, `absolute_path`) are kept for older versions.
import type { ToolFacts, ToolKind } from '../../events.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';

interface ToolShape {
  kind: ToolKind;
  /** Input fields that name one file or directory each. */
  paths?: readonly string[];
  /** Input fields that hold a list of paths or globs. */
  pathLists?: readonly string[];
  query?: string;
  url?: string;
  command?: string;
}

const builtInTools: Readonly<Record<string, ToolShape>> = {
  run_shell_command: { kind: 'shell', command: 'command', paths: ['dir_path', 'directory'] },
  read_file: { kind: 'read', paths: ['file_path', 'absolute_path', 'path'] },
  read_many_files: { kind: 'read', pathLists: ['include', 'paths'] },
  write_file: { kind: 'write', paths: ['file_path', 'absolute_path'] },
  replace: { kind: 'edit', paths: ['file_path', 'absolute_path'] },
  glob: { kind: 'search', query: 'pattern', paths: ['dir_path', 'path'] },
  grep_search: { kind: 'search', query: 'pattern', paths: ['dir_path', 'path'] },
  search_file_content: { kind: 'search', query: 'pattern', paths: ['dir_path', 'path'] },
  list_directory: { kind: 'list', paths: ['dir_path', 'path'] },
  web_fetch: { kind: 'fetch', url: 'url' },
  google_web_search: { kind: 'web_search', query: 'query' },
  write_todos: { kind: 'plan' },
  enter_plan_mode: { kind: 'plan' },
  exit_plan_mode: { kind: 'plan', paths: ['plan_filename'] },
  invoke_agent: { kind: 'task' },
  ask_user: { kind: 'ask' },
};

/** `web_fetch` takes its addresses inside a prompt (`{prompt: "Summarize https://…"}`): the first one. */
const firstUrl = (text: string | undefined) => (text ? /https?:\/\/[^\s"'<>)]+/.exec(text)?.[0] : undefined);

function pathsOf(shape: ToolShape, input: JsonObject): string[] {
  const single = (shape.paths ?? []).map((field) => stringOf(input[field])).filter((path): path is string => Boolean(path));
  const lists = (shape.pathLists ?? []).flatMap((field) => (Array.isArray(input[field]) ? (input[field] as unknown[]) : []));
  return [...single, ...lists.filter((path): path is string => typeof path === 'string')];
}

/**
 * The facts of a call of `name` with `input`; `mcpServer` when the CLI reports the call as an MCP
 * server's tool. Unknown tools are `other`.
 */
export function geminiToolFacts(name: string, input: unknown, mcpServer?: string): ToolFacts {
  if (mcpServer !== undefined) return { kind: 'mcp', name, server: mcpServer };
  const shape = builtInTools[name];
  if (!shape) return { kind: 'other', name };
  const fields = asJsonObject(input) ?? {};
  const facts: ToolFacts = { kind: shape.kind, name };
  const command = shape.command ? stringOf(fields[shape.command]) : undefined;
  if (command !== undefined) facts.command = command;
  const paths = pathsOf(shape, fields);
  if (paths.length) facts.paths = paths;
  const query = shape.query ? stringOf(fields[shape.query]) : undefined;
  if (query !== undefined) facts.query = query;
  const url = shape.url ? (stringOf(fields[shape.url]) ?? firstUrl(stringOf(fields.prompt))) : undefined;
  if (url !== undefined) facts.url = url;
  return facts;
}
