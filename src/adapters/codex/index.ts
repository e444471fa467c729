// The Codex CLI (`codex exec --json`) as an AdapterSpec.
import type { AdapterSpec, SessionTarget } from '../../core/contract/adapter.js';
import { notWholeSessionId } from '../../schema/ids.js';
import { toolBridgeServerName } from '../../schema/tool-names.js';
import { CoderError, FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import { buildCodexInvocation } from './argv.js';
import { codexCapabilities, codexInsteadHints, codexOwnedFlags } from './capabilities.js';
import { codexDocs } from './docs.js';
import { explainCodexExit } from './exit.js';
import { codexSessionStore } from './store.js';
import { codexLive } from './live.js';
import { codexFunctionToolCatalog, codexItemToolCatalog } from './tool-facts.js';
import { codexTranslation } from './translation.js';
import { codexVersions } from './versions.js';
import { codexEvents } from './events.js';

/** Efforts `model_reasoning_effort` accepts in 0.171.0 (`max` is a Claude level). */
const CODEX_EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

/**
 * A deny rule the bridge enforces (it names a custom tool or a tool of mcpServers); Codex itself has no
 * per-tool deny list. A bare server name is not one: it reads like a tool of Codex's own.
 */
function bridgeEnforces(rule: string, opts: ResolvedOpts): boolean {
  if (opts.tools?.some((tool) => tool.name === rule)) return true;
  const servers = [...Object.keys(opts.mcpServers ?? {}), ...(opts.tools?.length ? [toolBridgeServerName] : [])];
  return servers.some((server) => rule === `mcp__${server}` || rule.startsWith(`mcp__${server}__`) || (rule.startsWith(`${server}(`) && rule.endsWith(')')));
}

function validateCodexOpts(opts: ResolvedOpts, session: SessionTarget): void {
  const notWhole = notWholeSessionId(session, 'codex');
  if (notWhole) throw new InvalidOptionsError([notWhole], 'codex');
  const unenforced = opts.permissionPolicy?.deny?.filter((rule) => !bridgeEnforces(rule, opts)) ?? [];
  if (unenforced.length) {
    throw new FeatureNotSupportedError(
      'codex',
      'permissionPolicy.deny',
      `Codex has no per-tool deny list: only rules naming a custom tool or a tool of mcpServers are enforced (by the tool bridge); ${unenforced.map((rule) => JSON.stringify(rule)).join(', ')} name none. Use codexSandbox: "read-only" to forbid writes.`,
    );
  }
  const effort = opts.reasoningEffort ?? opts.codexReasoningEffort;
  if (effort !== undefined && !CODEX_EFFORTS.has(effort)) {
    throw new CoderError('invalid_options', `codex: reasoningEffort "${effort}" is not a Codex level; use one of ${[...CODEX_EFFORTS].join(', ')}.`, { provider: 'codex' });
  }
  // Each key opens a `-c` value, and clap reads a value that starts with `-` as a flag (0.171.0 exits 2).
  const flagKey = Object.keys(opts.codexConfig ?? {}).find((key) => key.startsWith('-'));
  if (flagKey !== undefined) throw new InvalidOptionsError([`codexConfig key ${JSON.stringify(flagKey)}: a config key cannot start with "-"`], 'codex');
  // Codex splits `-c` at the first `=` and reads the rest as TOML (`#` a comment): `model="x"#` would set model.
  const splitKey = Object.keys(opts.codexConfig ?? {}).find((key) => /[=\u0000-\u001f\u007f]/.test(key));
  if (splitKey !== undefined) throw new InvalidOptionsError([`codexConfig key ${JSON.stringify(splitKey)}: a config key cannot hold "=" or a control character`], 'codex');
  // `--image <FILE>...` splits its value at commas (0.171.0): "a.png,/elsewhere/x.png" sent two images.
  const splitImage = [...(opts.images ?? []), ...(opts.codexImages ?? [])].find((path) => path.includes(','));
  if (splitImage !== undefined) throw new InvalidOptionsError([`image ${JSON.stringify(splitImage)}: codex reads a path with "," as two images; rename the file`], 'codex');
  const plan = opts.permissionPolicy?.mode === 'plan';
  if (plan && opts.codexSandbox !== undefined && opts.codexSandbox !== 'read-only') {
    throw new CoderError('invalid_options', `codex: permissionPolicy.mode "plan" means --sandbox read-only, but codexSandbox is "${opts.codexSandbox}".`, { provider: 'codex' });
  }
  const bypass = opts.codexDangerouslyBypassApprovalsAndSandbox || opts.permissionPolicy?.mode === 'bypass';
  if (bypass && (plan || opts.codexSandbox !== undefined)) {
    throw new CoderError('invalid_options', 'codex: the bypass mode turns the sandbox off; drop codexSandbox / permissionPolicy.mode "plan" or the bypass.', { provider: 'codex' });
  }
}

export const codexAdapter: AdapterSpec<'codex'> = {
  name: 'codex',
  binary: 'codex',
  installHint: 'Install it with `npm i -g @openai/codex` (or pass executablePath).',
  npmPackage: '@openai/codex',
  versions: codexVersions,
  parseVersion: (output) => /codex-cli\s+(\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(output)?.[1],
  capabilities: codexCapabilities,
  events: codexEvents,
  ownedFlags: codexOwnedFlags,
  insteadHints: codexInsteadHints,
  validate: validateCodexOpts,
  // turn.completed.usage is summed over the whole thread, across `exec resume` runs.
  usageIsCumulative: true,
  docs: codexDocs,
  auth: {
    variables: ['CODEX_API_KEY', 'OPENAI_API_KEY', 'CODEX_ACCESS_TOKEN'],
    storedLogin: '`codex login` in CODEX_HOME or ~/.codex/auth.json',
  },
  environment: {
    // Set by Codex for the commands it runs: a nested codex would take itself for a sandboxed tool call.
    denied: ['CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'CODEX_THREAD_ID'],
    minimal: ['CODEX_HOME'],
  },
  // The default workspace-write sandbox runs the command; events call it a command_execution item.
  probe: {
    shellCall: (command) => ({ name: 'exec_command', input: { cmd: command } }),
    shellEventName: 'command_execution',
    failedRunExit: 'non-zero',
    plan: {
      call: (items) => ({ name: 'update_plan', input: { plan: items.map(({ content, status }) => ({ step: content, status })) } }),
      opts: { codexConfig: { 'tools.update_plan.enabled': true } },
    },
    // A reply of 5000 input tokens over the auto-compaction limit: the app-server compacts (a model
    // request of its own, answered by the summary), then the turn goes on. exec prints nothing of it.
    liveCompaction: {
      prompt: 'Plan the work, then answer.',
      script: [{ toolCalls: [{ name: 'exec_command', input: { cmd: 'echo apricot' } }], usage: { inputTokens: 5000, outputTokens: 10 } }, { text: 'Summary: ran one command.' }, { text: 'coderline probe: compacted.' }],
      opts: { codexConfig: { model_auto_compact_token_limit: 1000 } },
    },
  },
  canFork: true,
  // `exec fork <id>`: 0.145.0 exits 2 on the id ("unexpected argument"), 0.148.0 forks (docs/compat.md).
  forkSince: '0.148.0',
  buildInvocation: buildCodexInvocation,
  explainExit: explainCodexExit,
  createTranslator: codexTranslation.createTranslator,
  toolCatalogs: [codexItemToolCatalog, codexFunctionToolCatalog],
  sessionStore: codexSessionStore,
  live: codexLive,
};
