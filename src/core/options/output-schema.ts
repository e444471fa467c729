// Structured output: a Standard Schema of any library, or a plain JSON Schema object. The CLI is
// given JSON Schema; what the model produced is validated against the caller's schema.
import { InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import { compiledJsonSchema, jsonSchemaProblems, type CompiledJsonSchema } from '../../schema/json-schema.js';
import { isStandardSchema, ownJsonSchema, validateStandard, type Validation } from '../../schema/standard-schema.js';

/** The JSON Schema the CLI is given: the plain schema itself, the one passed beside a library schema, or the library's own. */
export function outputJsonSchemaOf(opts: Pick<ResolvedOpts, 'outputSchema' | 'outputJsonSchema'>): Record<string, unknown> | undefined {
  const schema = opts.outputSchema;
  if (schema === undefined) return undefined;
  if (!isStandardSchema(schema)) return { ...schema };
  if (opts.outputJsonSchema) return { ...opts.outputJsonSchema };
  const vendor = schema['~standard'].vendor;
  let own: Record<string, unknown> | undefined;
  try {
    own = ownJsonSchema(schema, 'output', 'draft-07');
  } catch (error) {
    throw new InvalidOptionsError([`outputSchema: this ${vendor} schema has no JSON Schema form (${error instanceof Error ? error.message : String(error)}); pass one as outputJsonSchema`]);
  }
  if (own) return own;
  throw new InvalidOptionsError([
    `outputSchema: this ${vendor} schema does not provide its JSON Schema (Standard JSON Schema); pass one as outputJsonSchema, e.g. from the library's own JSON Schema converter`,
  ]);
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

function checkedJsonSchema(schema: Readonly<Record<string, unknown>>): CompiledJsonSchema {
  const problems = jsonSchemaProblems(schema);
  if (problems.length) throw new InvalidOptionsError(problems.map((problem) => `outputSchema: JSON Schema ${problem}`));
  return compiledJsonSchema(schema)!;
}

export async function validateOutput(schema: NonNullable<ResolvedOpts['outputSchema']>, value: unknown): Promise<Validation> {
  if (isStandardSchema(schema)) return validateStandard(schema, value);
  const issues = checkedJsonSchema(schema).validate(value);
  return issues.length ? { ok: false, issues } : { ok: true, value };
}
