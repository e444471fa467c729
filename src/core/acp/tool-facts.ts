// What an ACP tool call does, as the SDK's portable ToolFacts. ACP names no tool, only its kind
// (`read`, `edit`, `delete`, `move`, `search`, `execute`, `think`, `fetch`, `switch_mode`, `other`),
// a title and the agent's own input (`rawInput`), plus the files it touches (`locations`). The kind
// stands as the tool's name (the name tool_use, tool_result and canUseTool show); an agent's preset
// may map kinds differently (AcpToolKinds). Pure: replay reaches it.
import type { ToolFacts, ToolKind } from '../../events.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';

/** ACP's tool kinds → the SDK's, for what an agent's preset does not say otherwise. */
export const acpToolKinds: Readonly<Record<string, ToolKind>> = {
  read: 'read',
  edit: 'edit',
  // Both change files without their content: a gate treats them as writes.
  delete: 'write',
  move: 'write',
  search: 'search',
  execute: 'shell',
  fetch: 'fetch',
  switch_mode: 'plan',
  think: 'other',
  other: 'other',
};

/** An agent's own mapping: ACP kind → ToolKind, over acpToolKinds. */
export type AcpToolKinds = Readonly<Record<string, ToolKind>>;

/** The name a tool call goes by: its ACP kind (`other` when it names none). */
export const acpToolName = (toolCall: JsonObject | undefined): string => stringOf(toolCall?.kind) ?? 'other';

const PATH_KEYS = ['path', 'file_path', 'filePath', 'fileName', 'absolute_path', 'dir_path', 'directory'] as const;

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The files the call names: its `locations`, then the path fields of its input, each once, as given. */
function pathsOf(toolCall: JsonObject, input: JsonObject | undefined): string[] {
  const locations = Array.isArray(toolCall.locations) ? toolCall.locations.map((item) => stringOf(asJsonObject(item)?.path)) : [];
  const fromInput = PATH_KEYS.flatMap((key) => stringsOf(input?.[key]));
  return [...new Set([...locations, ...fromInput].filter((path): path is string => path !== undefined && path !== ''))];
}

/** A shell call's command line: the input's `command` (a string, or argv joined), else the title. */
function commandOf(toolCall: JsonObject, input: JsonObject | undefined): string | undefined {
  const command = input?.command;
  if (typeof command === 'string') return command;
  const argv = stringsOf(command);
  if (argv.length > 0) return argv.join(' ');
  return stringOf(toolCall.title);
}

/**
 * The facts of an ACP tool call (a `tool_call` update, or the `toolCall` of a permission request):
 * `kind` from its ACP kind through `kinds`, then what its input names for that kind.
 */
export function acpToolFacts(toolCall: JsonObject, kinds: AcpToolKinds | undefined): ToolFacts {
  const name = acpToolName(toolCall);
  const kind = kinds?.[name] ?? acpToolKinds[name] ?? 'other';
  const input = asJsonObject(toolCall.rawInput);
  const facts: ToolFacts = { kind, name };
  if (kind === 'shell') {
    const command = commandOf(toolCall, input);
    if (command !== undefined) facts.command = command;
  }
  const paths = pathsOf(toolCall, input);
  if (paths.length > 0) facts.paths = paths;
  const query = stringOf(input?.pattern) ?? stringOf(input?.query);
  if (kind === 'search' && query !== undefined) facts.query = query;
  const url = stringOf(input?.url);
  if (kind === 'fetch' && url !== undefined) facts.url = url;
  return facts;
}
