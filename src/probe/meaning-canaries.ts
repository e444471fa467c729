// The sweep's canaries of the events that mean one thing on every CLI (issue 30): a plan, a subagent,
// a compaction, and the resume of an id no store holds. CLI-agnostic: the tool calls that write a
// plan or start a subagent, and what brings a run to compact, come from the adapter's `probe` data.
// A canary applies only where the adapter's events table claims the event (the sweep decides since
// which version); session_not_found applies to every CLI.
import type { AdapterSpec, MeaningEventType } from '../core/contract/adapter.js';
import type { PlanItem } from '../events.js';
import type { Canary } from './canaries.js';

export const CANARY_PLANNED_TEXT = 'coderline probe: planned.';
export const CANARY_DELEGATED_TEXT = 'coderline probe: the subagent ran the command.';
/** Printed by the subagent's shell call. */
export const CANARY_SUBAGENT_MARKER = 'coderline-probe-subagent';
/** A well-formed id no CLI's store holds (a UUID, version 4). */
export const CANARY_UNKNOWN_SESSION = '00000000-0000-4000-8000-00000c0de71e';

/**
 * Two writes of the whole plan; the last uses only statuses every CLI's plan can say (Codex's exec
 * plan reads a step in progress as pending).
 */
export const CANARY_PLANS: PlanItem[][] = [
  [{ content: 'Write the tests', status: 'in_progress' }, { content: 'Fix the bug', status: 'pending' }],
  [{ content: 'Write the tests', status: 'completed' }, { content: 'Fix the bug', status: 'pending' }],
];

const claims = (adapter: AdapterSpec, type: MeaningEventType) => {
  const support = adapter.events?.[type];
  return support !== undefined && 'since' in support;
};

export function meaningCanariesFor(adapter: AdapterSpec): Canary[] {
  const probe = adapter.probe;
  if (!probe) return [];
  const canaries: Canary[] = [];
  if (probe.plan && claims(adapter, 'plan')) {
    const { call, opts } = probe.plan;
    canaries.push({
      expect: { canary: 'plan', outcome: { status: 'success' }, finalText: CANARY_PLANNED_TEXT, usage: true, plan: CANARY_PLANS },
      prompt: 'Plan the work, then answer.',
      script: [...CANARY_PLANS.map((items) => ({ toolCalls: [call(items)] })), { text: CANARY_PLANNED_TEXT }],
      opts: opts ?? {},
    });
  }
  if (probe.subagent && claims(adapter, 'subagent')) {
    const { call, opts, phases, innerEvents } = probe.subagent;
    // The subagent runs one shell command and answers; then the parent answers.
    const inside = innerEvents ? [{ toolCalls: [probe.shellCall(`echo ${CANARY_SUBAGENT_MARKER}`)] }] : [];
    canaries.push({
      expect: { canary: 'subagent', outcome: { status: 'success' }, finalText: CANARY_DELEGATED_TEXT, usage: true, subagent: { phases, ...(innerEvents ? { innerTool: probe.shellEventName } : {}) } },
      prompt: 'Delegate the probe command to a subagent, then answer.',
      script: [{ toolCalls: [call('Run the probe command', `Run echo ${CANARY_SUBAGENT_MARKER}`)] }, ...inside, { text: 'coderline probe: the subagent is done.' }, { text: CANARY_DELEGATED_TEXT }],
      opts: opts ?? {},
    });
  }
  if (probe.compaction && claims(adapter, 'compaction')) {
    const { before, prompt, script, opts, phases, tokens } = probe.compaction;
    canaries.push({
      expect: { canary: 'compaction', outcome: { status: 'success' }, usage: false, compaction: { phases, tokens }, ...(before ? { sessionId: 'same' as const } : {}) },
      prompt,
      script,
      opts: opts ?? {},
      ...(before ? { before: { prompt: before, then: 'resume' as const } } : {}),
    });
  }
  const unknown = probe.unknownSessionId ?? CANARY_UNKNOWN_SESSION;
  canaries.push({
    expect: { canary: 'session_not_found', outcome: { status: 'error', code: 'session_not_found', exit: 'non-zero' }, usage: false, unknownSession: unknown },
    prompt: 'Continue.',
    script: [{ text: 'coderline probe: never asked.' }],
    opts: {},
  });
  return canaries;
}
