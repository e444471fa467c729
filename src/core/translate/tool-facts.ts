// The portable facts of a tool call (`tool` on tool_use, tool_result, permission requests), read off
// the adapter's catalog (core/contract/tool-catalog.ts). Pure: the same call gives the same facts, so
// replay stays deterministic. Input is the CLI's (untrusted): any shape gives facts, never a throw.
import type { ToolFacts, TranslatedEvent } from '../../events.js';
import type { PermissionCodec, Translator } from '../contract/adapter.js';
import type { InputPath, ToolCatalog, ToolRule } from '../contract/tool-catalog.js';
import { isJsonObject, stringOf } from '../../schema/json.js';

/** The values at `path` in `input` (see InputPath); own keys only, so `__proto__` names nothing. */
function valuesAt(input: unknown, path: InputPath): unknown[] {
  let values: unknown[] = [input];
  for (const step of path.split('.')) {
    const each = step.endsWith('[]');
    const key = each ? step.slice(0, -2) : step;
    values = values.flatMap((value) => {
      const inner = key === '' ? value : isJsonObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
      return each ? (Array.isArray(inner) ? inner : []) : [inner];
    });
  }
  return values;
}

const words = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string') ? value.join(' ') : undefined;

function first(input: unknown, paths: readonly InputPath[] | undefined, read: (value: unknown) => string | undefined): string | undefined {
  for (const path of paths ?? []) {
    for (const value of valuesAt(input, path)) {
      const found = read(value);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function factsByRule(rule: ToolRule, name: string, input: unknown): ToolFacts {
  const facts: ToolFacts = { kind: rule.kind, name };
  const command = first(input, rule.command, words);
  if (command !== undefined) facts.command = command;
  const paths = [...new Set((rule.paths ?? []).flatMap((path) => valuesAt(input, path)).filter((value): value is string => typeof value === 'string' && value !== ''))];
  if (paths.length) facts.paths = paths;
  const query = first(input, rule.query, stringOf);
  if (query !== undefined) facts.query = query;
  const url = first(input, rule.url, stringOf);
  if (url !== undefined) facts.url = url;
  const server = first(input, rule.server, stringOf);
  if (server !== undefined) facts.server = server;
  return facts;
}

/** The server of a tool named `mcp__<server>__<tool>` (the spelling of Claude, Codex and pi). */
export function serverOfMcpName(name: string): string | undefined {
  return /^mcp__(.+?)__./s.exec(name)?.[1];
}

/**
 * The facts of a call of `cliName` with `input` (`raw`: the CLI's record of it). `name` is the name the
 * event shows, when it is not the CLI's (a custom tool goes by the user's name). Unknown tools: `other`.
 */
export function toolFactsOf(catalog: ToolCatalog, cliName: string, input: unknown, raw?: unknown, name = cliName): ToolFacts {
  const server = catalog.mcp?.server(cliName, raw);
  if (server !== undefined) return { kind: 'mcp', name, server };
  const rule = Object.hasOwn(catalog.tools, cliName) ? catalog.tools[cliName] : undefined;
  return rule ? factsByRule(rule, name, input) : { kind: 'other', name };
}

/** The tool names of `catalog` whose kind is one of `kinds` (what a CLI's deny flags take for them). */
export function toolNamesOfKinds(catalog: ToolCatalog, kinds: readonly string[] | undefined): string[] {
  if (!kinds?.length) return [];
  return Object.entries(catalog.tools).filter(([, rule]) => kinds.includes(rule.kind)).map(([name]) => name);
}

const copyOf = (facts: ToolFacts): ToolFacts => (facts.paths ? { ...facts, paths: [...facts.paths] } : { ...facts });

/**
 * Puts `tool` on the tool_use events of a stream of `catalog`'s CLI, and on its tool_result events
 * joined from their tool_use by id (a result with no use seen gets the facts of its name alone).
 * One per stream: it remembers the calls whose results are still to come.
 */
export function toolFactsAnnotator(catalog: ToolCatalog): <E extends TranslatedEvent[] | undefined>(events: E) => E {
  const used = new Map<string, ToolFacts>();
  return (events) => {
    for (const event of events ?? []) {
      if (event.type === 'tool_use') {
        event.tool ??= toolFactsOf(catalog, stringOf(event.extra?.cliToolName) ?? event.name, event.input, event.raw, event.name);
        used.set(event.id, event.tool);
      } else if (event.type === 'tool_result' && event.tool === undefined) {
        const facts = used.get(event.id);
        // One result per call: forgetting the call keeps memory flat however long the run is.
        used.delete(event.id);
        if (facts) event.tool = copyOf(facts);
        else if (event.name !== undefined) event.tool = toolFactsOf(catalog, stringOf(event.extra?.cliToolName) ?? event.name, undefined, event.raw, event.name);
      }
    }
    return events;
  };
}

/** `translator` with the tool facts of `catalog` on its events (toolFactsAnnotator). */
export function withToolFacts(catalog: ToolCatalog, translator: Translator): Translator {
  const annotate = toolFactsAnnotator(catalog);
  return { translate: (record) => annotate(translator.translate(record)) };
}

/** `codec` whose requests carry `tool`, so a canUseTool policy can decide by kind. */
export function withAskedToolFacts(catalog: ToolCatalog, codec: PermissionCodec): PermissionCodec {
  return {
    ...codec,
    request(body) {
      const request = codec.request(body);
      if (!request || request.tool) return request;
      return { ...request, tool: toolFactsOf(catalog, request.toolName, request.input, body) };
    },
  };
}
