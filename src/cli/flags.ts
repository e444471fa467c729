// Every shared option of the SDK as a command-line flag, derived from the options schema so a new
// option becomes a flag without touching the command: `maxTurns` → `--max-turns`, and so on.
import { describedOptions, optionSchemas, type OptionSchemaNode } from '../options.js';
import { UsageError } from './usage-error.js';

/** How a flag's text becomes an option value. */
export type FlagKind =
  | 'string'
  | 'number'
  | 'boolean'
  /** Repeatable; each value may also hold several comma-separated items. */
  | 'list'
  /** Repeatable; each value is one item as given (commas included). */
  | 'repeated'
  /** Repeatable `KEY=VALUE`; values stay strings. */
  | 'pairs'
  /** Repeatable `KEY=VALUE`; `true`, `false` and numbers become JSON values. */
  | 'typed-pairs'
  /** One JSON text. */
  | 'json';

export interface OptionFlag {
  /** The flag without dashes, e.g. `max-turns`. */
  flag: string;
  /** The option key it sets, e.g. `maxTurns`. */
  key: string;
  kind: FlagKind;
  choices?: readonly string[];
  description: string;
}

/** Short names for the options a user types most. */
export const flagAliases: Readonly<Record<string, string>> = {
  effort: 'reasoningEffort',
  cwd: 'workingDirectory',
};

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function kindOf(node: OptionSchemaNode): FlagKind | undefined {
  switch (node.type) {
    case 'string':
    case 'picklist':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      // Lists of names or paths; a list of objects (custom tools) cannot come from a command line.
      const element = node.item?.type;
      return element === 'string' || element === 'picklist' ? 'list' : undefined;
    }
    case 'record': {
      const value = node.value?.type;
      if (value === 'string') return 'pairs';
      // codexConfig: scalars typed from the text, arrays and tables as JSON.
      return value === 'union' || value === 'custom' ? 'typed-pairs' : 'json';
    }
    case 'union':
      // copilotAdditionalMcpConfig: a path or JSON text, which the adapter passes on as given.
      return 'string';
    default:
      // Functions, the AbortSignal, outputSchema, permissionPolicy: the command's own flags cover those that matter.
      return undefined;
  }
}

function choicesOf(node: OptionSchemaNode): readonly string[] | undefined {
  const target = node.type === 'array' && node.item ? node.item : node;
  return target.type === 'picklist' ? target.options?.filter((option) => typeof option === 'string') : undefined;
}

/** Lists whose items may hold commas of their own (`--extra-args=--tools=Read,Grep`): never split. */
const unsplitLists: ReadonlySet<string> = new Set(['extraArgs']);

let derived: OptionFlag[] | undefined;

/** One flag per schema option that a command line can express. */
export function optionFlags(): readonly OptionFlag[] {
  derived ??= describedOptions(optionSchemas().oneShotOptsSchema).flatMap(({ key, description, node }) => {
    const schemaKind = kindOf(node);
    if (!schemaKind) return [];
    const kind = schemaKind === 'list' && unsplitLists.has(key) ? 'repeated' : schemaKind;
    const choices = choicesOf(node);
    return [{ flag: kebab(key), key, kind, description, ...(choices ? { choices } : {}) }];
  });
  return derived;
}

/** The `node:util` parseArgs configuration of the option flags (aliases included). */
export function optionFlagConfig(): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const option of optionFlags()) {
    const multiple = option.kind === 'list' || option.kind === 'repeated' || option.kind === 'pairs' || option.kind === 'typed-pairs';
    config[option.flag] = { type: option.kind === 'boolean' ? 'boolean' : 'string', ...(multiple ? { multiple } : {}) };
  }
  for (const [alias, key] of Object.entries(flagAliases)) {
    const target = optionFlags().find((option) => option.key === key);
    if (target) config[alias] = config[target.flag]!;
  }
  return config;
}

/** The values of KEY=VALUE and JSON flags (environment, MCP servers, Codex's config) can be secrets: errors do not quote them. */
const NOT_SHOWN = '(the value is not shown: it can be a secret)';

function parsePair(flag: string, text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`--${flag} expects KEY=VALUE, got a value without a KEY= ${NOT_SHOWN}`, `Example: --${flag} NAME=value (repeat the flag for more).`);
  return [text.slice(0, at), text.slice(at + 1)];
}

function typedValue(flag: string, name: string, text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UsageError(`--${flag}: the value of ${name} looks like an array or table but is not JSON ${NOT_SHOWN}`, `Example: --${flag} 'KEY=["a", "b"]'`);
    }
  }
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** `typed` is the flag as the user wrote it (an alias or the full name), for error messages. */
function convert(schemaOption: OptionFlag, typed: string, raw: Array<string | boolean>): unknown {
  const option = { ...schemaOption, flag: typed };
  const texts = (Array.isArray(raw) ? raw : [raw]).map(String);
  const last = texts.at(-1) ?? '';
  switch (option.kind) {
    case 'boolean':
      return texts.includes('true');
    case 'number': {
      const value = Number(last);
      if (last.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${option.flag} expects a number, got "${last}"`, `Example: --${option.flag} 10`);
      return value;
    }
    case 'list': {
      const items = texts.flatMap((text) => text.split(',')).map((item) => item.trim()).filter((item) => item !== '');
      const wrong = items.find((item) => option.choices && !option.choices.includes(item));
      if (wrong !== undefined) throw new UsageError(`--${option.flag} takes ${option.choices?.join(', ')}; got "${wrong}"`, `Example: --${option.flag} ${option.choices?.join(',')}`);
      return items;
    }
    case 'repeated':
      return texts;
    case 'pairs':
      return Object.fromEntries(texts.map((text) => parsePair(option.flag, text)));
    case 'typed-pairs':
      return Object.fromEntries(texts.map((text) => {
        const [name, value] = parsePair(option.flag, text);
        return [name, typedValue(option.flag, name, value)];
      }));
    case 'json':
      try {
        return JSON.parse(last) as unknown;
      } catch {
        throw new UsageError(`--${option.flag} expects JSON, got text that does not parse ${NOT_SHOWN}`, `Quote the JSON for your shell, e.g. --${option.flag} '{"name": {...}}'`);
      }
    case 'string':
      if (option.choices && !option.choices.includes(last)) {
        throw new UsageError(`--${option.flag} must be one of ${option.choices.join(', ')}; got "${last}"`, `Example: --${option.flag} ${option.choices[0] ?? ''}`);
      }
      return last;
  }
}

/** The SDK options set by the parsed flags (flags not given are left out). */
export function optionsFromFlags(values: Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const option of optionFlags()) {
    const alias = Object.keys(flagAliases).find((name) => flagAliases[name] === option.key);
    const aliasValue = alias === undefined ? undefined : values[alias];
    const given = [values[option.flag], aliasValue].filter((value) => value !== undefined);
    if (given.length === 0) continue;
    const typed = aliasValue !== undefined && alias !== undefined ? alias : option.flag;
    options[option.key] = convert(option, typed, given.flat() as Array<string | boolean>);
  }
  return options;
}

/** Option issues from the SDK (`maxTurns: Too small …`) told in flags (`--max-turns: Too small …`). */
export function issueInFlags(issue: string): string {
  return issue.replace(/^([A-Za-z]+)(?=[.:])|(?<=unknown option ")([A-Za-z]+)/, (key: string) => {
    const option = optionFlags().find((candidate) => candidate.key === key);
    return option ? `--${option.flag}` : key;
  });
}
