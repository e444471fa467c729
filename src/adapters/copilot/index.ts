// GitHub Copilot CLI: `copilot --output-format json --no-ask-user …`, prompt on stdin.
// Options → argv.ts; what is supported → capabilities.ts; JSONL records → translate.ts.
import type { AdapterSpec } from '../../core/contract/adapter.js';
import { buildCopilotInvocation, validateCopilotOptions } from './argv.js';
import { copilotCapabilities, copilotInsteadHints, copilotOwnedFlags } from './capabilities.js';
import { copilotDocs } from './docs.js';
import { explainCopilotExit } from './exit.js';
import { copilotLive } from './live.js';
import { copilotSessionStore } from './store.js';
import { copilotAcpToolCatalog, copilotToolCatalog } from './tool-facts.js';
import { copilotTranslation } from './translation.js';
import { copilotVersions } from './versions.js';
import { copilotEvents } from './events.js';

export const copilotAdapter: AdapterSpec<'copilot'> = {
  name: 'copilot',
  binary: 'copilot',
  installHint: 'Install it with `npm install -g @github/copilot` (or pass executablePath).',
  npmPackage: '@github/copilot',
  versions: copilotVersions,
  // `copilot --version` prints "GitHub Copilot CLI 1.0.102." (and, when outdated, an update notice).
  parseVersion: (output) => /Copilot CLI\s+v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)/.exec(output)?.[1] ?? /(\d+\.\d+\.\d+)/.exec(output)?.[1],
  capabilities: copilotCapabilities,
  events: copilotEvents,
  ownedFlags: copilotOwnedFlags,
  insteadHints: copilotInsteadHints,
  validate: validateCopilotOptions,
  // stdout has no token counts (its `result` record counts premium requests of this process); the
  // session's token total comes from the usage file at exit, which the core turns into this run's
  // share (buildInvocation's afterExit, usage-file.ts).
  usageIsCumulative: false,
  docs: copilotDocs,
  auth: {
    variables: ['COPILOT_PROVIDER_API_KEY', 'COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'],
    storedLogin: '`copilot` /login in COPILOT_HOME or ~/.copilot',
  },
  environment: {
    minimal: ['COPILOT_HOME', 'COPILOT_PROVIDER_BASE_URL', 'COPILOT_PROVIDER_TYPE', 'COPILOT_MODEL', 'COPILOT_OFFLINE', 'COPILOT_AUTO_UPDATE'],
  },
  // With --no-ask-user a shell command nobody allowed is denied: allow the shell, every command
  // (`shell(echo)` would deny the `exit 3` of the failing-command canary).
  probe: {
    shellCall: (command) => ({ name: 'bash', input: { command, description: 'coderline probe' } }),
    shellEventName: 'bash',
    failedRunExit: 'non-zero',
    toolOpts: { permissionPolicy: { allow: ['shell'] } },
    // The task tool's subagent, synchronous; it runs bash.
    subagent: {
      call: (description, prompt) => ({ name: 'task', input: { name: 'prober', description, prompt, agent_type: 'task', mode: 'sync' } }),
      opts: { permissionPolicy: { mode: 'bypass' } },
      phases: ['started', 'completed'],
      innerEvents: true,
    },
  },
  canFork: false,
  buildInvocation: buildCopilotInvocation,
  explainExit: explainCopilotExit,
  createTranslator: copilotTranslation.createTranslator,
  toolCatalogs: [copilotToolCatalog, copilotAcpToolCatalog],
  sessionStore: copilotSessionStore,
  live: copilotLive,
};
