// AI SDK tools in the agent: the spec hands a model only a tool's definition (name, description, JSON
// Schema), never its `execute`, so a tool the agent should call is given at model creation. Each one
// becomes a coderline tool() served to the CLI over the tools bridge, and runs in this process.
import { randomUUID } from 'node:crypto';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { FeatureNotSupportedError, InvalidOptionsError, tool, type Tool, type ToolOutput } from '../index.js';
import { isStandardSchema, type StandardSchemaV1 } from '../schema/standard-schema.js';
import { isJsonObject } from '../schema/json.js';

/**
 * What coderline reads of a tool made by the AI SDK's `tool()`: its public fields. `inputSchema` is a
 * Standard Schema (zod 4, valibot, arktype, …), a `jsonSchema()` / `zodSchema()` schema, or a lazy one.
 */
export interface AiSdkTool {
  type?: 'function' | 'dynamic' | 'provider';
  description?: unknown;
  inputSchema?: unknown;
  /** Runs in this process when the agent calls the tool (its options: toolCallId, abortSignal, messages: [], context: {}). */
  execute?: (input: never, options: never) => unknown;
}

/** The AI SDK's own schema wrapper (`jsonSchema()`, `zodSchema()`): a JSON Schema and an optional validator. */
interface AiSdkSchema {
  jsonSchema: unknown;
  validate?: (value: unknown) => { success: true; value: unknown } | { success: false; error: Error } | PromiseLike<{ success: true; value: unknown } | { success: false; error: Error }>;
}

type Execute = (input: unknown, options: { toolCallId: string; messages: []; abortSignal: AbortSignal; context: Record<string, never> }) => unknown;

function isAiSdkSchema(value: unknown): value is AiSdkSchema {
  return typeof value === 'object' && value !== null && 'jsonSchema' in value;
}

/** A Standard Schema over the AI SDK schema's validator (none: every value passes, as in the AI SDK). */
function standardOf(schema: AiSdkSchema): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      validate: async (value) => {
        if (!schema.validate) return { value };
        const checked = await schema.validate(value);
        return checked.success ? { value: checked.value } : { issues: [{ message: checked.error.message }] };
      },
    },
  };
}

function inputOf(name: string, given: unknown): { input: StandardSchemaV1; inputJsonSchema?: Record<string, unknown> } {
  const schema = typeof given === 'function' && !isStandardSchema(given) ? (given as () => unknown)() : given;
  if (isStandardSchema(schema)) return { input: schema };
  if (isAiSdkSchema(schema)) {
    if (!isJsonObject(schema.jsonSchema)) {
      throw new InvalidOptionsError([`tool "${name}": its input schema gives its JSON Schema asynchronously; give the JSON Schema itself (jsonSchema({...}))`]);
    }
    return { input: standardOf(schema), inputJsonSchema: schema.jsonSchema };
  }
  throw new InvalidOptionsError([`tool "${name}": inputSchema must be a Standard Schema (zod, valibot, arktype, …) or the AI SDK's jsonSchema() / zodSchema()`]);
}

/** The last value of a streaming `execute` (an async iterable of previews), else the value itself. */
async function finalValue(value: unknown): Promise<unknown> {
  if (typeof value !== 'object' || value === null || !(Symbol.asyncIterator in value)) return value;
  let last: unknown;
  for await (const item of value as AsyncIterable<unknown>) last = item;
  return last;
}

function toolOutputOf(value: unknown): ToolOutput {
  if (typeof value === 'string') return value;
  return { json: value ?? null };
}

/** Each AI SDK tool as a coderline tool named by its key; one without `execute` cannot be answered. */
export function bridgedTools(tools: Readonly<Record<string, AiSdkTool>>): Tool[] {
  return Object.entries(tools).map(([name, given]) => {
    if (given.type === 'provider') throw new InvalidOptionsError([`tool "${name}": a provider tool belongs to its provider's models, not to a CLI agent`]);
    if (typeof given.execute !== 'function') {
      throw new InvalidOptionsError([`tool "${name}" has no execute: the agent's call of it could not be answered (a tool given to coderline() runs in this process)`]);
    }
    if (given.description !== undefined && typeof given.description !== 'string') throw new InvalidOptionsError([`tool "${name}": description must be a string`]);
    const execute = given.execute as unknown as Execute;
    return tool({
      name,
      description: given.description ?? '',
      ...inputOf(name, given.inputSchema),
      // The bridge's MCP call carries no id of the agent's tool use: execute gets one of its own.
      handler: async (input, { signal }) => toolOutputOf(await finalValue(await execute(input, { toolCallId: randomUUID(), messages: [], abortSignal: signal, context: {} }))),
    });
  });
}

/**
 * The tools of the call (generateText's `tools`) the agent can call: those also given to coderline().
 * Any other one is refused: the model sees its definition only, so the agent could never run it.
 */
export function checkCallTools(provider: string, callTools: LanguageModelV4CallOptions['tools'], bridged: ReadonlySet<string>): void {
  for (const callTool of callTools ?? []) {
    if (callTool.type === 'function' && bridged.has(callTool.name)) continue;
    const instead =
      callTool.type === 'provider'
        ? `"${callTool.name}" is a provider tool (${callTool.id}): only its own provider's models run it.`
        : `The model is handed the definition of "${callTool.name}", not its execute, so the agent could not run it: give the tool to coderline('${provider}', { tools: { ${callTool.name} } }), where the agent calls it through the tools bridge and it runs in this process.`;
    throw new FeatureNotSupportedError(provider, `tools.${callTool.name}`, instead);
  }
}
