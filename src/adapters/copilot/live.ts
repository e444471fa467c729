// Copilot's live mode: `copilot --acp`, the Agent Client Protocol v1 on the shared ACP client
// (core/acp/), one process for many turns. What is Copilot's own: its command line (the prompt-mode
// options, argv.ts), its session modes and `allow_all` switch, what it does not honour over ACP,
// and its habits in the records (acp-translate.ts). The agent asks before each shell command and
// write with `session/request_permission`; reads run unasked.
// Verified on 1.0.102 (cli-notes/copilot.md, "Live mode (probed)"; test/copilot/live.test.ts).
import type { LiveSpec } from '../../core/contract/adapter.js';
import { acpLiveSpec, type AcpModeRequests } from '../../core/acp/live-spec.js';
import type { PermissionModeMapping } from '../../core/options/permission-mode.js';
import { copilotAcpTranslation } from './acp-translate.js';
import { copilotOptions } from './argv.js';
import { copilotLiveMinVersion } from './versions.js';
import { native } from '../../core/contract/adapter.js';


/** ACP session modes are URLs; Copilot 1.0.102 offers agent, plan and autopilot. */
const sessionMode = (name: string) => `https://agentclientprotocol.com/protocol/session-modes#${name}`;

/**
 * setPermissionMode() on Copilot: the ACP session mode (`session/set_mode`) and its `allow_all`
 * config option (`session/set_config_option`), which runs every tool without asking. Plan mode blocks
 * shell commands that write and writes outside the session folder (the model is told why), but writes
 * the session's plan.md unasked: with canUseTool only `default` is taken.
 */
const permissionModes: PermissionModeMapping<AcpModeRequests> = {
  modes: {
    plan: [{ method: 'session/set_mode', params: { modeId: sessionMode('plan') } }],
    default: [
      { method: 'session/set_mode', params: { modeId: sessionMode('agent') } },
      { method: 'session/set_config_option', params: { configId: 'allow_all', value: 'off' } },
    ],
    bypassPermissions: [
      { method: 'session/set_mode', params: { modeId: sessionMode('agent') } },
      { method: 'session/set_config_option', params: { configId: 'allow_all', value: 'on' } },
    ],
  },
  unasked: ['bypassPermissions', 'plan'],
};

export const copilotLive: LiveSpec = acpLiveSpec({
  translation: copilotAcpTranslation,
  capabilities: {
    open: native('copilot --acp (Agent Client Protocol v1): initialize, session/new or session/load, then a session/prompt request per turn; its answer ends the turn'),
    interrupt: native('session/cancel notification: the prompt answers cancelled, a running shell command is killed, the process stays'),
    setModel: native('session/set_model (not advertised by 1.0.102, but answered; the next model request uses the new id)'),
    setPermissionMode: native('session/set_mode and the allow_all config option, after the running turn: plan → #plan, default → #agent with allow_all off, bypassPermissions → allow_all on; plan and bypassPermissions are refused with canUseTool (plan mode writes the session plan.md unasked); other modes are an InvalidOptionsError'),
  },
  // 1.0.73 answers session/new with "Authentication required" under BYOK (its only auth method in
  // `initialize` is `copilot login`); the sweep's live canaries pass from 1.0.79 on (docs/compat.md).
  minVersion: copilotLiveMinVersion,
  // Not honoured or not verified over ACP: --mode has no effect there, the prompt-based schema is a
  // one-shot mechanism, and session/new takes no id. The tool bridge works as in prompt mode (1.0.102:
  // the --additional-mcp-config servers load; test/mcp/gate.e2e.test.ts runs a custom tool live).
  // Files too: 1.0.102 writes an embedded resource to a temp file and sends the model only its path
  // (<tagged_files>), so the content never reaches the request.
  notLive: ['outputSchema', 'copilotMode', 'permissionPolicy.mode=plan', 'sessionId', 'files'],
  async buildInvocation(ctx) {
    const { args, env } = await copilotOptions(ctx);
    return { args: ['--acp', ...args], env };
  },
  permissionModes,
  // Copilot switches at once, also inside a running turn.
  permissionModeBetweenTurns: true,
  // 1.0.102's refusal of session/load for a session this COPILOT_HOME lacks.
  sessionNotFound: /Resource not found: Session .* not found/i,
});
