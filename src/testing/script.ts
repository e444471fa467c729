// A scripted model conversation, independent of the wire API: each fake server turns a step into
// its own SSE dialect. One step answers one model request, in order. The steps themselves are
// core/contract/model-reply.ts: an adapter's structuredAnswer speaks them too.
import type { ScriptStep } from '../core/contract/model-reply.js';

/**
 * What the server answers: a fixed list (the last step repeats when the list runs out, so
 * "500 forever" is one step), or a function of the request.
 */
export type Script = ScriptStep[] | ((request: RecordedRequest, index: number) => ScriptStep);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  receivedAt: number;
}

export function stepFor(script: Script, request: RecordedRequest, index: number): ScriptStep {
  if (typeof script === 'function') return script(request, index);
  const step = script[Math.min(index, script.length - 1)];
  if (!step) throw new Error('the fake model script is empty');
  return step;
}

/** Splits text into word-sized deltas (keeping the spaces) so streams have more than one. */
export function textDeltas(text: string): string[] {
  const parts = text.match(/\S+\s*|\s+/g);
  return parts ?? [text];
}

/**
 * `steps` in order, except that a request whose body matches `asks` (the CLI compacting, perhaps in
 * the background while the turn goes on) gets `summary` whenever it comes.
 */
export function withSummaries(steps: readonly ScriptStep[], asks: RegExp, summary = 'Summary: the context was filled by shell calls.'): Script {
  let next = 0;
  return (request) => {
    if (asks.test(JSON.stringify(request.body))) return { text: summary };
    const step = steps[Math.min(next++, steps.length - 1)];
    if (!step) throw new Error('the fake model script is empty');
    return step;
  };
}
