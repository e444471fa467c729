// `--fake-model FILE`: the run goes to coderline/testing's fake model on 127.0.0.1, which answers by the
// script in FILE, instead of to the CLI's real API. One flag for what `model.env(cli)` sets up (the
// model's URL, a key, private config dirs), which by hand takes a dozen --extra-env flags per CLI.
import * as v from 'valibot';
import type { ProviderName, SharedStartOpts } from '../index.js';
import { fakeApiOf, startFakeModel, type ScriptStep } from '../testing/index.js';
import { readNamedFile, UsageError } from './usage-error.js';

const toolCall = v.strictObject({ name: v.string(), input: v.unknown(), id: v.optional(v.string()) });
// Strict: a misspelt key ("txt") is an error, not a step that silently answers nothing.
const reply = v.strictObject({
  kind: v.optional(v.literal('reply')),
  thinking: v.optional(v.string()),
  text: v.optional(v.string()),
  toolCalls: v.optional(v.array(toolCall)),
});
const error = v.strictObject({ kind: v.literal('error'), status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)), message: v.optional(v.string()) });
const HINT = 'It must hold a JSON array of steps, one per model call, e.g. [{"text":"Hello."}] or [{"toolCalls":[{"name":"Bash","input":{"command":"ls"}}]},{"text":"Done."}] (docs/cli.md).';

/** The steps a shell user writes: replies (text, thinking, tool calls) and HTTP errors (`kind: "error"`). */
export async function readFakeScript(file: string): Promise<ScriptStep[]> {
  const named = `--fake-model file "${file}"`;
  const content = await readNamedFile(file, named, HINT);
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new UsageError(`${named} is not JSON`, HINT);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new UsageError(`${named} is not a non-empty JSON array`, HINT);
  return parsed.map((step: unknown, index) => {
    const schema = (step as { kind?: unknown } | null)?.kind === 'error' ? error : reply;
    const checked = v.safeParse(schema, step);
    if (checked.success) return checked.output;
    const issue = checked.issues[0];
    const key = v.getDotPath(issue);
    throw new UsageError(`${named}: step ${index}${key ? `, ${key}` : ''}: ${issue.message}`, HINT);
  });
}

export async function withFakeModel(cli: ProviderName, file: string, options: Record<string, unknown>): Promise<{ options: Record<string, unknown>; close(): Promise<void> }> {
  const script = await readFakeScript(file);
  const model = await startFakeModel({ api: fakeApiOf[cli], script });
  try {
    const fake: SharedStartOpts = await model.env(cli);
    const extraEnv = { ...(options.extraEnv as Record<string, string> | undefined), ...fake.extraEnv };
    return { options: { ...options, ...fake, extraEnv }, close: () => model.close() };
  } catch (failure) {
    await model.close();
    throw failure;
  }
}
