// OpenCode (`opencode run --format json`, npm opencode-ai) as an AdapterSpec. The registry package
// ships a Bun single binary per platform; until its postinstall links one, `opencode` is a script that
// says so and exits 1 (explained as platform_not_supported before any run starts).
import type { AdapterSpec } from '../../core/contract/adapter.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { buildOpencodeInvocation } from './argv.js';
import { opencodeCapabilities, opencodeInsteadHints, opencodeOwnedFlags } from './capabilities.js';
import { checkGateVariables, checkModelId, permissionConfig } from './config.js';
import { opencodeDocs } from './docs.js';
import { opencodeAuth, opencodeEnvironment } from './environment.js';
import { explainOpencodeExit } from './exit.js';
import { opencodeLive } from './live.js';
import { opencodeSessionStore } from './store.js';
import { createOpencodeTranslator, mcpNamesOf } from './translate.js';
import { opencodeVersions } from './versions.js';
import { opencodeEvents } from './events.js';

export const opencodeAdapter: AdapterSpec<'opencode'> = {
  events: opencodeEvents,
  name: 'opencode',
  binary: 'opencode',
  installHint: 'Install it with `npm i -g opencode-ai` (its postinstall links the binary of your platform), or pass executablePath.',
  npmPackage: 'opencode-ai',
  versions: opencodeVersions,
  parseVersion: (output) => /^v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/m.exec(output)?.[1],
  capabilities: opencodeCapabilities,
  ownedFlags: opencodeOwnedFlags,
  insteadHints: opencodeInsteadHints,
  validate(opts) {
    // All throw before anything spawns: a model id OpenCode's config would expand, a rule it cannot
    // match, a gate the caller's env would undo.
    checkModelId(opts);
    const permission = permissionConfig(opts, mcpNamesOf(opts));
    checkGateVariables(opts, permission !== undefined || gatedRun(opts) || Boolean(opts.tools?.length || opts.mcpServers));
  },
  usageIsCumulative: false,
  docs: opencodeDocs,
  auth: opencodeAuth,
  environment: opencodeEnvironment,
  probe: {
    shellCall: (command) => ({ name: 'bash', input: { command, description: 'Run the probe command' } }),
    shellEventName: 'bash',
    failedRunExit: 'non-zero',
    plan: { call: (items) => ({ name: 'todowrite', input: { todos: items.map(({ content, status }) => ({ content, status, priority: 'high' })) } }) },
    // run prints a tool call only when it ends: the subagent's own calls never show.
    subagent: { call: (description, prompt) => ({ name: 'task', input: { description, prompt, subagent_type: 'general' } }), phases: ['completed'], innerEvents: false },
    unknownSessionId: 'ses_0000c0de71eUnknownSess1on',
  },
  canFork: true,
  buildInvocation: buildOpencodeInvocation,
  explainExit: explainOpencodeExit,
  createTranslator: createOpencodeTranslator,
  sessionStore: opencodeSessionStore,
  live: opencodeLive,
};
