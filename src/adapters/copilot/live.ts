// Copilot's live mode: `copilot --acp`, the Agent Client Protocol v1 (newline-delimited JSON-RPC 2.0
// on stdio), one process for many turns. Handshake: `initialize`, then `session/new` (or
// `session/load` to go on with a session). A turn is a `session/prompt` request whose answer, with its
// stop reason, ends it; `session/update` notifications stream in between (acp-translate.ts). Interrupt:
// the `session/cancel` notification (the prompt then answers `cancelled`). The agent asks before each
// shell command and write with `session/request_permission`, answered with the option chosen.
// Verified on 1.0.102 (cli-notes/copilot.md, "Live mode (probed)"; test/copilot/live.test.ts).
import type { LiveConnection, LiveConnectContext, LiveRpc, LiveSpec, PermissionCodec } from '../../core/contract/adapter.js';
import type { ResolvedOpts } from '../../options.js';
import type { Attachments } from '../../core/options/attachments.js';
import { pickPermissionMode, type PermissionModeMapping } from '../../core/options/permission-mode.js';
import { asJsonObject, stringOf } from '../../schema/json.js';
import { CoderError } from '../../errors.js';
import { copilotOptions } from './argv.js';
import { copilotAcpToolCatalog } from './tool-facts.js';
import { copilotLiveTranslation } from './translation.js';
import { withAskedToolFacts } from '../../core/translate/tool-facts.js';
import { copilotLiveMinVersion } from './versions.js';

const native = (how: string) => ({ level: 'native' as const, how });

/** The ACP version this speaks; the CLI answers `initialize` with the one it chose. */
const PROTOCOL_VERSION = 1;

/** Option ids Copilot offers in a permission request (1.0.102 has no reject_always). */
const ALLOW_ONCE = 'allow_once';
const REJECT_ONCE = 'reject_once';

const permission: PermissionCodec = withAskedToolFacts(copilotAcpToolCatalog, {
  request(body) {
    const request = asJsonObject(body);
    if (request?.method !== 'session/request_permission') return undefined;
    const toolCall = asJsonObject(asJsonObject(request.params)?.toolCall);
    if (!toolCall) return undefined;
    const toolUseId = stringOf(toolCall.toolCallId);
    const description = stringOf(toolCall.title);
    return {
      // ACP names no tool, only its kind (execute, edit, read …): the same name the tool_use event has.
      toolName: stringOf(toolCall.kind) ?? 'other',
      input: asJsonObject(toolCall.rawInput) ?? {},
      ...(toolUseId ? { toolUseId } : {}),
      ...(description ? { description } : {}),
    };
  },
  answer: (decision) => ({ outcome: { outcome: 'selected', optionId: decision.behavior === 'allow' ? ALLOW_ONCE : REJECT_ONCE } }),
  refuses: (decision) =>
    decision.behavior === 'allow' && decision.updatedInput
      ? 'copilot cannot run a changed input (ACP answers with an option id only), so the tool use was denied'
      : undefined,
});

/** A prompt's ACP content blocks: the text, then each image inline (initialize answers promptCapabilities.image). */
function promptBlocks(prompt: string, attachments: Attachments | undefined): unknown[] {
  const images = (attachments?.images ?? []).map((image) => ({ type: 'image', mimeType: image.mediaType, data: image.base64 }));
  return [{ type: 'text', text: prompt }, ...images];
}

/** ACP session modes are URLs; Copilot 1.0.102 offers agent, plan and autopilot. */
const sessionMode = (name: string) => `https://agentclientprotocol.com/protocol/session-modes#${name}`;

/**
 * setPermissionMode() on Copilot: the ACP session mode (`session/set_mode`) and its `allow_all`
 * config option (`session/set_config_option`), which runs every tool without asking. Plan mode blocks
 * shell commands that write and writes outside the session folder (the model is told why), but writes
 * the session's plan.md unasked: with canUseTool only `default` is taken.
 */
const permissionModes: PermissionModeMapping<Array<{ method: string; params: Record<string, string> }>> = {
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

function sessionIdOf(answer: unknown): string {
  const id = stringOf(asJsonObject(answer)?.sessionId);
  if (!id) throw new CoderError('protocol', 'copilot answered session/new without a sessionId', { provider: 'copilot' });
  return id;
}

/** One ACP session: the handshake opens it, and every later message names its id. */
class AcpSession implements LiveConnection {
  sessionId: string | undefined;

  constructor(private readonly rpc: LiveRpc) {}

  async open({ cwd, session }: LiveConnectContext): Promise<void> {
    const initialized = asJsonObject(
      await this.rpc.request(
        {
          method: 'initialize',
          params: { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'coderline', version: '0' } },
        },
        'initialize',
      ),
    );
    if (initialized?.protocolVersion !== PROTOCOL_VERSION) {
      throw new CoderError('protocol', `copilot speaks ACP version ${JSON.stringify(initialized?.protocolVersion)}, this SDK version ${PROTOCOL_VERSION}`, { provider: 'copilot' });
    }
    if (session.kind === 'resume') {
      await this.rpc.request({ method: 'session/load', params: { sessionId: session.sessionId, cwd, mcpServers: [] } }, 'session/load');
      this.sessionId = session.sessionId;
    } else {
      this.sessionId = sessionIdOf(await this.rpc.request({ method: 'session/new', params: { cwd, mcpServers: [] } }, 'session/new'));
    }
  }

  /** The prompt's answer (its stop reason) comes when the turn ends: answerRecord makes it the turn's last record. */
  startTurn(prompt: string, _opts: ResolvedOpts, attachments: Attachments | undefined): Promise<unknown> {
    return this.rpc.request({ method: 'session/prompt', params: { sessionId: this.sessionId, prompt: promptBlocks(prompt, attachments) } }, 'the prompt', { untimed: true });
  }

  /** A notification without an answer: the prompt then answers `cancelled`, which ends the turn. */
  async interrupt(): Promise<void> {
    this.rpc.notify({ method: 'session/cancel', params: { sessionId: this.sessionId } });
  }

  async setModel(model: string): Promise<void> {
    await this.rpc.request({ method: 'session/set_model', params: { sessionId: this.sessionId, modelId: model } }, 'the model change');
  }
}

export const copilotLive: LiveSpec = {
  ...copilotLiveTranslation,
  capabilities: {
    open: native('copilot --acp (Agent Client Protocol v1): initialize, session/new or session/load, then a session/prompt request per turn; its answer ends the turn'),
    interrupt: native('session/cancel notification: the prompt answers cancelled, a running shell command is killed, the process stays'),
    setModel: native('session/set_model (not advertised by 1.0.102, but answered; the next model request uses the new id)'),
    setPermissionMode: native('session/set_mode and the allow_all config option, after the running turn: plan → #plan, default → #agent with allow_all off, bypassPermissions → allow_all on; plan and bypassPermissions are refused with canUseTool (plan mode writes the session plan.md unasked); other modes are an InvalidOptionsError'),
  },
  // 1.0.73 answers session/new with "Authentication required" under BYOK (its only auth method in
  // `initialize` is `copilot login`); the sweep's live canaries pass from 1.0.79 on (docs/compat.md).
  minVersion: copilotLiveMinVersion,
  // The session translator assembles chunks per session; deltas are shown or not for all its turns.
  launchOnly: ['streamPartialMessages'],
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
  async connect(rpc, ctx) {
    const session = new AcpSession(rpc);
    await session.open(ctx);
    return session;
  },
  // 1.0.102's refusal of session/load for a session this COPILOT_HOME lacks.
  sessionNotFound: /Resource not found: Session .* not found/i,
  setPermissionModeRequests: (mode, opts, sessionId) =>
    pickPermissionMode('copilot', permissionModes, mode, opts).map(({ method, params }) => ({ method, params: { sessionId, ...params } })),
  // Copilot switches at once, also inside a running turn.
  permissionModeBetweenTurns: true,
  permission,
};
