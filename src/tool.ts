// Custom tools: a handler in the caller's process that the agent CLI can call (over the SDK-hosted
// MCP bridge, src/core/tools/tool-bridge.ts). Only types and a cheap check here: nothing heavy at import.
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { isStandardSchema, ownJsonSchema, type StandardSchemaV1 } from './schema/standard-schema.js';
import { isJsonObject } from './schema/json.js';
import { InvalidOptionsError } from './errors.js';

/** One MCP content block (text, image, audio, resource link or embedded resource). */
export type ToolContent = ContentBlock;

/**
 * What a handler returns: plain text, a JSON value (sent as its JSON text), or MCP content blocks.
 * `isError: true` tells the model the call failed without throwing.
 */
export type ToolOutput =
  | string
  | { text: string; isError?: boolean }
  | { json: unknown; isError?: boolean }
  | { content: ToolContent[]; isError?: boolean };

export interface ToolCallContext {
  /** Fires when the run is aborted or ends, or the CLI cancels the call. */
  signal: AbortSignal;
  /**
   * Asks the user through the run's `onUserInput` (an MCP elicitation, answered on the host on every
   * CLI): `accept` with the content (matching `schema` when one is given), `decline`, or `cancel`
   * when nobody answered (no onUserInput, a throw, the timeout, the run ended).
   */
  elicit(request: ElicitRequest): Promise<ElicitResult>;
}

/** What a tool asks the user: a message, and the JSON Schema (an object schema) of the answer's fields. */
export interface ElicitRequest {
  message: string;
  schema?: Readonly<Record<string, unknown>>;
}

/** The user's answer to an elicitation, in MCP's terms. */
export type ElicitResult = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface ToolDefinition<S extends StandardSchemaV1> {
  /** What the model calls it: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  description: string;
  /** The input's schema, of any Standard Schema library (zod, valibot, arktype, …): calls are validated against it. */
  input: S;
  /**
   * The input's JSON Schema, as the CLI sees it: needed when the schema's library provides none
   * (zod before 4.2, zod/mini, zod/v3, valibot); when given, it wins over the library's own.
   */
  inputJsonSchema?: Readonly<Record<string, unknown>>;
  handler: (input: StandardSchemaV1.InferOutput<S>, context: ToolCallContext) => ToolOutput | Promise<ToolOutput>;
}

/** A tool made by `tool()`, for the `tools` option. */
export interface Tool<I = unknown> {
  readonly kind: 'coderline.tool';
  readonly name: string;
  readonly description: string;
  /** Validates what the model sends before the handler sees it. */
  readonly input: StandardSchemaV1;
  /** The input's JSON Schema, as the CLI sees it (an object schema, as MCP requires). */
  readonly inputJsonSchema: Readonly<Record<string, unknown>>;
  // Method syntax: a Tool of a specific input still fits in a list of Tool (`tools: [a, b]`).
  handler(input: I, context: ToolCallContext): ToolOutput | Promise<ToolOutput>;
}

/** Letters, digits, `_` and `-`: what every CLI's model API accepts in a tool name. */
const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Defines a tool the agent can call; pass it in `tools`. */
export function tool<S extends StandardSchemaV1>(definition: ToolDefinition<S>): Tool<StandardSchemaV1.InferOutput<S>> {
  const issues: string[] = [];
  if (typeof definition.name !== 'string' || !toolNamePattern.test(definition.name)) {
    issues.push(`tool name "${String(definition.name)}" must be 1-64 letters, digits, "_" or "-"`);
  }
  if (typeof definition.description !== 'string') issues.push(`tool "${definition.name}": description must be a string`);
  if (!isStandardSchema(definition.input)) issues.push(`tool "${definition.name}": input must be a Standard Schema (zod, valibot, arktype, …)`);
  if (definition.inputJsonSchema !== undefined && !isJsonObject(definition.inputJsonSchema)) issues.push(`tool "${definition.name}": inputJsonSchema must be a JSON Schema object`);
  if (typeof definition.handler !== 'function') issues.push(`tool "${definition.name}": handler must be a function`);
  if (issues.length) throw new InvalidOptionsError(issues);
  return Object.freeze({
    kind: 'coderline.tool',
    name: definition.name,
    description: definition.description,
    input: definition.input,
    inputJsonSchema: inputJsonSchemaOf(definition),
    handler: definition.handler,
  });
}

/** The JSON Schema of what the model must send: given beside the schema, else the schema's own. MCP only takes object schemas. */
function inputJsonSchemaOf({ name, input, inputJsonSchema }: Omit<ToolDefinition<StandardSchemaV1>, 'handler'>): Record<string, unknown> {
  let json: Record<string, unknown> | undefined;
  const vendor = input['~standard'].vendor;
  if (inputJsonSchema) {
    json = { ...inputJsonSchema };
    delete json.$schema;
  } else {
    try {
      json = ownJsonSchema(input, 'input', 'draft-2020-12');
    } catch (error) {
      throw new InvalidOptionsError([`tool "${name}": this ${vendor} input schema has no JSON Schema form (${error instanceof Error ? error.message : String(error)}); pass one as inputJsonSchema`]);
    }
  }
  if (!json) {
    throw new InvalidOptionsError([
      `tool "${name}": this ${vendor} input schema does not provide its JSON Schema (Standard JSON Schema); pass one as inputJsonSchema, e.g. from the library's own JSON Schema converter`,
    ]);
  }
  if (json.type !== 'object') throw new InvalidOptionsError([`tool "${name}": input must be an object schema such as z.object({...})`]);
  return json;
}

export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'coderline.tool';
}
