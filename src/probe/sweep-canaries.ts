// The compatibility sweep's canaries (`npm run compat`): the probe's, five more on failures, structured
// output and sessions, and the meaning canaries (src/probe/meaning-canaries.ts). CLI-agnostic like the
// probe's: what differs per CLI comes from the adapter's `probe` data.
import type { AdapterSpec } from '../core/contract/adapter.js';
import { CANARY_FIRST_TEXT, CANARY_MARKER, CANARY_RECOVERED_TEXT, CANARY_SECOND_TEXT, CANARY_STRUCTURED, CANARY_TOOL_TEXT, canariesFor, type Canary } from './canaries.js';
import { meaningCanariesFor } from './meaning-canaries.js';

const structuredSchema = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

/** What a CLI version must get right to be supported: the probe's canaries, then the sweep's own. */
export function sweepCanariesFor(adapter: AdapterSpec): Canary[] | undefined {
  const probe = adapter.probe;
  const probeCanaries = canariesFor(adapter);
  if (!probe || !probeCanaries) return undefined;
  const sessionCanary = (canary: 'resume' | 'fork'): Canary => ({
    expect: { canary, outcome: { status: 'success' }, finalText: CANARY_SECOND_TEXT, usage: true, sessionId: canary === 'resume' ? 'same' : 'new' },
    prompt: 'What was the word?',
    script: [{ text: CANARY_FIRST_TEXT }, { text: CANARY_SECOND_TEXT }],
    opts: {},
    before: { prompt: 'Remember the word apricot.', then: canary },
  });
  return [
    ...probeCanaries,
    {
      expect: {
        canary: 'failing_tool',
        outcome: { status: 'success' },
        finalText: CANARY_TOOL_TEXT,
        tool: { name: probe.shellEventName, marker: CANARY_MARKER, fails: probe.failedCommandIsError !== false },
        usage: true,
      },
      prompt: 'Run the probe command that fails, then answer.',
      script: [{ toolCalls: [probe.shellCall(`echo ${CANARY_MARKER}; exit 3`)] }, { text: CANARY_TOOL_TEXT }],
      opts: probe.toolOpts ?? {},
    },
    {
      expect: { canary: 'server_error_retry', outcome: { status: 'success' }, finalText: CANARY_RECOVERED_TEXT, usage: true },
      prompt: 'Answer after a failed call.',
      script: [{ kind: 'error', status: 500, message: 'coderline probe: internal error' }, { text: CANARY_RECOVERED_TEXT }],
      opts: {},
      retries: 2,
    },
    {
      expect: { canary: 'structured', outcome: { status: 'success' }, output: CANARY_STRUCTURED, usage: true },
      prompt: 'Answer with the structured probe answer.',
      script: probe.structuredAnswer?.(CANARY_STRUCTURED) ?? [{ text: JSON.stringify(CANARY_STRUCTURED) }],
      opts: { outputSchema: structuredSchema },
    },
    sessionCanary('resume'),
    ...(adapter.canFork ? [sessionCanary('fork')] : []),
    ...meaningCanariesFor(adapter),
  ];
}
