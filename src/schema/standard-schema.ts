// The caller's schemas (outputSchema, tool() input) are read only through the Standard Schema
// interface (standardschema.dev): zod ≥ 3.24, valibot, arktype and others implement it, so no
// schema library's internals are read and any version works. The types are written from the spec.

/** A schema of any library that implements Standard Schema v1 (zod, valibot, arktype, …). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: present when the library can describe the schema as JSON Schema. */
    readonly jsonSchema?: JsonSchemaConverter | undefined;
  }
  type Result<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly Issue[] };
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }
  interface JsonSchemaConverter {
    /** Both may throw when the schema has no JSON Schema form (a transform, a custom check). */
    readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    readonly output: (options: { readonly target: string }) => Record<string, unknown>;
  }
  /** The type a schema's validation yields. */
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
}

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (typeof value === 'object' || typeof value === 'function') && value !== null ? (value as { '~standard'?: unknown })['~standard'] : undefined;
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function';
}

export type Validation = { ok: true; value: unknown } | { ok: false; issues: string[] };

function issueText(issue: StandardSchemaV1.Issue, root: string): string {
  const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
  return `${path || root}: ${issue.message}`;
}

/** Validates through the schema's own library; each issue reads `path: message` (`root` names the value itself). */
export async function validateStandard(schema: StandardSchemaV1, value: unknown, root = '(root)'): Promise<Validation> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) return { ok: false, issues: result.issues.map((issue) => issueText(issue, root)) };
  return { ok: true, value: result.value };
}

/**
 * The schema's own JSON Schema (Standard JSON Schema), without `$schema`; undefined when its library
 * does not provide one. Throws what the library throws for a schema it cannot describe.
 */
export function ownJsonSchema(schema: StandardSchemaV1, io: 'input' | 'output', target: 'draft-07' | 'draft-2020-12'): Record<string, unknown> | undefined {
  const converter = schema['~standard'].jsonSchema;
  if (typeof converter?.[io] !== 'function') return undefined;
  const json = { ...converter[io]({ target }) };
  delete json.$schema;
  return json;
}
