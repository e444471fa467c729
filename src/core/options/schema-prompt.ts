// Best-effort structured output for CLIs without a schema flag: the schema travels in the prompt and
// the core validates the answer afterwards (from the final text parsed as JSON).

/** The prompt with instructions to answer with one JSON value matching `jsonSchema`. */
export function promptWithOutputSchema(prompt: string, jsonSchema: Record<string, unknown>): string {
  return [
    prompt,
    '',
    'Reply with only one JSON value that matches this JSON Schema: no prose before or after it, no Markdown code fence.',
    JSON.stringify(jsonSchema),
  ].join('\n');
}
