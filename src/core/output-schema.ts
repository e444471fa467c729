// Structured output: a zod schema or a JSON Schema object, turned into JSON Schema for the CLI and
// used to validate what the model produced.
import type { z } from 'zod';
import type { OutputSchema } from '../options.js';
import { loadZod } from './zod.js';

function isZodSchema(schema: OutputSchema): schema is z.ZodType {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

export function toJsonSchema(schema: OutputSchema): Record<string, unknown> {
  if (!isZodSchema(schema)) return { ...schema };
  const json = loadZod().toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Reads a JSON answer from model text, tolerating a Markdown code fence around it. */
export function parseJsonAnswer(text: string): { ok: true; value: unknown } | { ok: false } {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(text.trim());
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) };
  } catch {
    return { ok: false };
  }
}

export type Validation = { ok: true; value: unknown } | { ok: false; issues: string[] };

export function validateOutput(schema: OutputSchema, value: unknown): Validation {
  const zodSchema = isZodSchema(schema) ? schema : loadZod().fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  const parsed = zodSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`),
  };
}
