// The call options of the spec against what a CLI agent takes: each one the CLI has no setting for is
// an `unsupported` warning (never dropped in silence); the rest become coderline options.
import type { LanguageModelV4CallOptions, SharedV4Warning } from '@ai-sdk/provider';
import type { AdapterSpec, OutputSchema, ReasoningEffort } from '../index.js';

/** Sampling and length settings: a CLI sets them itself, none takes them from its caller. */
const samplingSettings = ['maxOutputTokens', 'temperature', 'topP', 'topK', 'presencePenalty', 'frequencyPenalty', 'seed'] as const;

export interface CallPlan {
  warnings: SharedV4Warning[];
  reasoningEffort: ReasoningEffort | undefined;
  /** The JSON Schema of a JSON response format, for coderline's outputSchema. */
  outputSchema: OutputSchema | undefined;
  /** A JSON response format without a schema: the prompt asks for JSON. */
  jsonWithoutSchema: boolean;
}

/** Headers the AI SDK adds to every call by itself (not the caller's). */
const sdkHeaders = new Set(['user-agent']);

export function planCall(adapter: AdapterSpec<string>, options: LanguageModelV4CallOptions): CallPlan {
  const warnings: SharedV4Warning[] = [];
  const cli = adapter.name;
  for (const setting of samplingSettings) {
    if (options[setting] !== undefined) warnings.push({ type: 'unsupported', feature: setting, details: `${cli} chooses it itself; the value is not passed on` });
  }
  if (options.stopSequences?.length) warnings.push({ type: 'unsupported', feature: 'stopSequences', details: `${cli} takes no stop sequences` });
  const headers = Object.keys(options.headers ?? {}).filter((name) => !sdkHeaders.has(name.toLowerCase()));
  if (headers.length) warnings.push({ type: 'unsupported', feature: 'headers', details: `${cli} makes its own model requests; ${headers.join(', ')} not sent` });
  if (options.toolChoice && options.toolChoice.type !== 'auto') {
    warnings.push({ type: 'unsupported', feature: 'toolChoice', details: `the agent decides which tools it calls (${options.toolChoice.type} asked)` });
  }

  let reasoningEffort: ReasoningEffort | undefined;
  if (options.reasoning !== undefined && options.reasoning !== 'provider-default') {
    if (adapter.capabilities.reasoningEffort) reasoningEffort = options.reasoning;
    else warnings.push({ type: 'unsupported', feature: 'reasoning', details: `${cli} has no reasoning effort setting` });
  }

  const format = options.responseFormat;
  const outputSchema = format?.type === 'json' && format.schema ? (format.schema as OutputSchema) : undefined;
  const jsonWithoutSchema = format?.type === 'json' && !format.schema;
  if (outputSchema && adapter.capabilities.outputSchema?.level === 'best-effort') {
    warnings.push({ type: 'compatibility', feature: 'responseFormat', details: `${cli} has no native structured output: the schema goes in the prompt and coderline validates the answer` });
  }
  if (jsonWithoutSchema) warnings.push({ type: 'compatibility', feature: 'responseFormat', details: 'JSON without a schema: the prompt asks for a JSON answer' });
  return { warnings, reasoningEffort, outputSchema, jsonWithoutSchema };
}
