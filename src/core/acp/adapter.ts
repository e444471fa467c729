// createAcpAdapter(): any agent that speaks the Agent Client Protocol on stdio, as a coderline live
// session (`createCoder(agent).open()`), on the same ACP client the built-in Copilot and Gemini
// presets use. The preset is checked like every option before anything can start: its command and
// arguments go to the process as given (no shell), its variables are names, and a caller's options
// cannot add flags (extraArgs is not offered).
import type { AdapterSpec, CapabilityTable, LiveSpec } from '../contract/adapter.js';
import { FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import { acpPresetIssues, type AcpAgentOptions, type FeatureName } from '../../options.js';
import type { AcpTranslationSpec } from './dialect.js';
import { acpLiveSpec } from './live-spec.js';
import { acpToolCatalogWith } from './tool-facts.js';
import { createAcpTranslator } from './translate.js';
import { native } from '../contract/adapter.js';

export type { AcpAgentOptions };


/** No version range applies to an agent the SDK does not know: it is never asked `--version`. */
const UNKNOWN_VERSIONS = { min: '0.0.0', testedMax: '0.0.0' };

function capabilitiesOf(preset: AcpAgentOptions): CapabilityTable {
  return {
    workingDirectory: native('the process cwd and session/new { cwd }'),
    canUseTool: native('session/request_permission, answered with the allow_once or reject_once option the agent offers (no "always": later calls would run unasked); a changed input is refused (denied, with an error event)'),
    streamPartialMessages: native('agent_message_chunk / agent_thought_chunk as deltas'),
    ...(preset.capabilities?.images ? { images: native('an ACP image content block per image in session/prompt') } : {}),
  };
}

function liveOf(preset: AcpAgentOptions, translation: AcpTranslationSpec): LiveSpec {
  const { name, command } = preset;
  const args = [...(preset.args ?? [])];
  const env = { ...preset.env };
  const can = preset.capabilities ?? {};
  return acpLiveSpec({
    translation,
    capabilities: {
      open: native(`${[command, ...args].join(' ')} (Agent Client Protocol v1): initialize, session/new or session/load, then a session/prompt request per turn; its answer ends the turn`),
      ...(can.interrupt === false ? {} : { interrupt: native('session/cancel notification: the prompt answers cancelled') }),
      ...(can.setModel ? { setModel: native('session/set_model') } : {}),
    },
    minVersion: UNKNOWN_VERSIONS.min,
    authMethod: preset.authMethod,
    // What send() may attach: images only where the preset says the agent takes them.
    notLive: can.images ? ['files'] : ['images', 'files'],
    async buildInvocation(ctx) {
      if (ctx.session.kind === 'resume' && can.loadSession === false) {
        throw new FeatureNotSupportedError(name, 'open(options, { sessionId })', `${name}'s preset says it cannot load a session: open a new one.`);
      }
      return { args: [...args], env: { ...env } };
    },
  });
}

/**
 * An adapter for an ACP agent: `createCoder(createAcpAdapter({ name, command, args }))` then
 * `coder.open()`. Throws InvalidOptionsError for a preset of any other shape.
 */
export function createAcpAdapter<const N extends string>(preset: AcpAgentOptions & { name: N }): AdapterSpec<N> {
  const issues = acpPresetIssues(preset);
  if (issues.length > 0) throw new InvalidOptionsError(issues.map((issue) => `createAcpAdapter: ${issue}`));
  // A copy: a caller's later change to its object changes no adapter.
  const agent = structuredClone(preset);
  const { name } = agent;
  const translation: AcpTranslationSpec = { agent: name, ...(agent.toolKinds ? { toolCatalog: acpToolCatalogWith(agent.toolKinds) } : {}) };
  const oneShot = `${name} is driven over ACP only: open a live session with createCoder(adapter).open()`;
  const modelHint = `${name}'s model is not an option here: put it in the preset's args or env, as its ACP mode takes it.`;
  return {
    name: name as N,
    binary: agent.command,
    installHint: `Install ${name}'s agent so that "${agent.command}" starts it, or pass executablePath.`,
    versions: UNKNOWN_VERSIONS,
    parseVersion: () => undefined,
    versionProbe: false,
    capabilities: capabilitiesOf(agent),
    insteadHints: { model: modelHint } satisfies Partial<Record<FeatureName, string>>,
    canFork: false,
    ...(agent.credentials?.length ? { auth: { variables: agent.credentials, storedLogin: `wherever ${name} keeps its own login` } } : {}),
    buildInvocation() {
      throw new FeatureNotSupportedError(name, 'run()', oneShot);
    },
    createTranslator: (ctx) => createAcpTranslator(translation, ctx),
    live: liveOf(agent, translation),
  };
}
