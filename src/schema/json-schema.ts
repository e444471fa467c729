// A plain JSON Schema given as outputSchema is compiled when the options are parsed, so a schema the
// SDK cannot check (a typo'd type, `if`/`then`, a `$ref` to another document) is an InvalidOptionsError
// before any CLI runs, not a failed run after the tokens were spent. The subset is what the CLIs'
// structured output accepts; docs/api.md lists it (supportedJsonSchema below).
import { isJsonObject, type JsonObject } from './json.js';

const typeNames = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
type TypeName = (typeof typeNames)[number];

/** Keywords that only describe: accepted, never checked (`format` included, as JSON Schema 2020-12 has it). */
const annotations = ['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'format', 'readOnly', 'writeOnly', 'deprecated'];
const checked = [
  'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'oneOf', 'allOf',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern',
  'minItems', 'maxItems', '$ref', '$defs', 'definitions',
];

/** The keywords a plain JSON Schema outputSchema may use (for the docs). */
export const supportedJsonSchema = { checked, annotations, refs: 'local only: "#/$defs/…" or "#/definitions/…"' } as const;

type Check = (value: unknown, path: string, issues: string[]) => void;

export interface CompiledJsonSchema {
  /** What is wrong with the value, one line per problem; empty when it matches. */
  validate(value: unknown): string[];
}

const typeOf = (value: unknown): TypeName =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : (typeof value as TypeName);

const matchesType = (value: unknown, type: TypeName): boolean => {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => sameJson((a as JsonObject)[key], (b as JsonObject)[key]));
}

const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
/** How an issue names where it is: the dotted path, or `(root)` for the value itself. */
const shown = (path: string) => path || '(root)';

/** Compiles `schema`, or returns every problem that keeps it from being checked. */
export function compileJsonSchema(schema: unknown): CompiledJsonSchema | { problems: string[] } {
  const problems: string[] = [];
  const root = isJsonObject(schema) ? schema : {};
  const defs: Record<string, Check> = {};
  const defining = new Map<string, unknown>();
  for (const bucket of ['$defs', 'definitions'] as const) {
    const entries = root[bucket];
    if (entries !== undefined && !isJsonObject(entries)) problems.push(`#/${bucket} must be an object of schemas`);
    else for (const [name, def] of Object.entries(entries ?? {})) defining.set(`#/${bucket}/${name}`, def);
  }

  function refCheck(ref: unknown, where: string): Check {
    if (typeof ref !== 'string' || !defining.has(ref)) {
      problems.push(`${where}: $ref ${JSON.stringify(ref)} is not supported: only local references to "#/$defs/…" or "#/definitions/…" that exist`);
      return () => undefined;
    }
    // Compiled once, looked up when used: a definition may refer to itself.
    return (value, path, issues) => defs[ref]!(value, path, issues);
  }

  function compile(node: unknown, where: string): Check {
    if (node === true) return () => undefined;
    if (node === false) return (_value, path, issues) => void issues.push(`${shown(path)}: no value is allowed here`);
    if (!isJsonObject(node)) {
      problems.push(`${where}: a schema must be an object or a boolean`);
      return () => undefined;
    }
    const checks: Check[] = [];
    for (const key of Object.keys(node)) {
      if (!checked.includes(key) && !annotations.includes(key)) problems.push(`${where}: keyword "${key}" is not supported`);
    }
    if (where !== '#' && (node.$defs !== undefined || node.definitions !== undefined)) problems.push(`${where}: $defs belong at the root`);
    if (node.$ref !== undefined) checks.push(refCheck(node.$ref, where));
    if (node.type !== undefined) checks.push(typeCheck(node.type, where));
    if (node.enum !== undefined) {
      const allowed = node.enum;
      if (!Array.isArray(allowed) || allowed.length === 0) problems.push(`${where}: enum must be a non-empty array`);
      else checks.push((value, path, issues) => void (allowed.some((option) => sameJson(option, value)) || issues.push(`${shown(path)}: must be one of ${JSON.stringify(allowed)}`)));
    }
    if ('const' in node) {
      const expected = node.const;
      checks.push((value, path, issues) => void (sameJson(expected, value) || issues.push(`${shown(path)}: must be ${JSON.stringify(expected)}`)));
    }
    checks.push(...objectChecks(node, where), ...arrayChecks(node, where), ...boundChecks(node, where), ...combinatorChecks(node, where));
    return (value, path, issues) => {
      for (const check of checks) check(value, path, issues);
    };
  }

  function typeCheck(type: unknown, where: string): Check {
    const types = Array.isArray(type) ? type : [type];
    const unknown = types.filter((name) => !typeNames.includes(name as TypeName));
    if (unknown.length > 0 || types.length === 0) {
      problems.push(`${where}: type ${JSON.stringify(type)} is not a JSON Schema type (${typeNames.join(', ')})`);
      return () => undefined;
    }
    return (value, path, issues) => {
      if (!types.some((name) => matchesType(value, name as TypeName))) issues.push(`${shown(path)}: expected ${types.join(' or ')}, got ${typeOf(value)}`);
    };
  }

  function objectChecks(node: JsonObject, where: string): Check[] {
    const checks: Check[] = [];
    const properties: Record<string, Check> = {};
    if (node.properties !== undefined) {
      if (!isJsonObject(node.properties)) problems.push(`${where}: properties must be an object of schemas`);
      else for (const [name, sub] of Object.entries(node.properties)) properties[name] = compile(sub, `${where}/properties/${name}`);
    }
    const required = node.required ?? [];
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) problems.push(`${where}: required must be an array of property names`);
    const extra = node.additionalProperties === undefined ? undefined : compile(node.additionalProperties, `${where}/additionalProperties`);
    checks.push((value, path, issues) => {
      if (!isJsonObject(value)) return;
      if (Array.isArray(required)) for (const name of required) if (!(name in value)) issues.push(`${shown(at(path, name))}: required`);
      for (const [name, item] of Object.entries(value)) {
        const check = properties[name] ?? extra;
        if (node.additionalProperties === false && !properties[name]) issues.push(`${shown(at(path, name))}: not allowed (additionalProperties is false)`);
        else check?.(item, at(path, name), issues);
      }
    });
    return checks;
  }

  function arrayChecks(node: JsonObject, where: string): Check[] {
    if (node.items === undefined) return [];
    if (Array.isArray(node.items)) {
      problems.push(`${where}: items must be one schema (tuple items are not supported)`);
      return [];
    }
    const item = compile(node.items, `${where}/items`);
    return [(value, path, issues) => {
      if (Array.isArray(value)) value.forEach((element, index) => item(element, at(path, index), issues));
    }];
  }

  function boundChecks(node: JsonObject, where: string): Check[] {
    const checks: Check[] = [];
    const bound = (key: string, applies: (value: unknown) => number | undefined, fails: (actual: number, limit: number) => boolean, says: string) => {
      const limit = node[key];
      if (limit === undefined) return;
      if (typeof limit !== 'number') {
        problems.push(`${where}: ${key} must be a number`);
        return;
      }
      checks.push((value, path, issues) => {
        const actual = applies(value);
        if (actual !== undefined && fails(actual, limit)) issues.push(`${shown(path)}: ${says} ${limit}`);
      });
    };
    const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
    const length = (value: unknown) => (typeof value === 'string' ? [...value].length : undefined);
    const count = (value: unknown) => (Array.isArray(value) ? value.length : undefined);
    bound('minimum', number, (n, l) => n < l, 'must be >=');
    bound('maximum', number, (n, l) => n > l, 'must be <=');
    bound('exclusiveMinimum', number, (n, l) => n <= l, 'must be >');
    bound('exclusiveMaximum', number, (n, l) => n >= l, 'must be <');
    bound('multipleOf', number, (n, l) => !Number.isInteger(n / l), 'must be a multiple of');
    bound('minLength', length, (n, l) => n < l, 'must have at least this many characters:');
    bound('maxLength', length, (n, l) => n > l, 'must have at most this many characters:');
    bound('minItems', count, (n, l) => n < l, 'must have at least this many items:');
    bound('maxItems', count, (n, l) => n > l, 'must have at most this many items:');
    if (node.pattern !== undefined) {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(String(node.pattern), 'u');
      } catch {
        problems.push(`${where}: pattern ${JSON.stringify(node.pattern)} is not a valid regular expression`);
      }
      if (pattern && typeof node.pattern === 'string') {
        const compiled = pattern;
        checks.push((value, path, issues) => void (typeof value === 'string' && !compiled.test(value) && issues.push(`${shown(path)}: must match ${compiled.source}`)));
      } else if (pattern) problems.push(`${where}: pattern must be a string`);
    }
    return checks;
  }

  function combinatorChecks(node: JsonObject, where: string): Check[] {
    const checks: Check[] = [];
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = node[key];
      if (branches === undefined) continue;
      if (!Array.isArray(branches) || branches.length === 0) {
        problems.push(`${where}: ${key} must be a non-empty array of schemas`);
        continue;
      }
      const compiled = branches.map((branch, index) => compile(branch, `${where}/${key}/${index}`));
      checks.push((value, path, issues) => {
        const results = compiled.map((check) => {
          const found: string[] = [];
          check(value, path, found);
          return found;
        });
        const matching = results.filter((found) => found.length === 0).length;
        if (key === 'allOf') issues.push(...results.flat());
        else if (key === 'anyOf' && matching === 0) issues.push(`${shown(path)}: matches none of anyOf (${results.map((found) => found.join('; ')).join(' | ')})`);
        else if (key === 'oneOf' && matching !== 1) issues.push(`${shown(path)}: must match exactly one of oneOf, matches ${matching}`);
      });
    }
    return checks;
  }

  for (const [ref, def] of defining) defs[ref] = compile(def, ref);
  const check = compile(schema, '#');
  if (problems.length > 0) return { problems };
  return {
    validate(value) {
      const issues: string[] = [];
      check(value, '', issues);
      return issues;
    },
  };
}

/** Plain JSON Schemas, compiled once: when the options are parsed. */
const compiled = new WeakMap<object, CompiledJsonSchema>();

/** Compiles a plain JSON Schema outputSchema once; what keeps it from being checked, if anything. */
export function jsonSchemaProblems(schema: Readonly<Record<string, unknown>>): string[] {
  if (compiled.has(schema)) return [];
  const result = compileJsonSchema(schema);
  if ('problems' in result) return result.problems;
  compiled.set(schema, result);
  return [];
}

/** The schema as jsonSchemaProblems compiled it; undefined when it had problems or was never seen. */
export const compiledJsonSchema = (schema: Readonly<Record<string, unknown>>): CompiledJsonSchema | undefined => compiled.get(schema);
