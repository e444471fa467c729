// The ACP client: one session of an agent over the live host's JSON-RPC channel. Handshake:
// `initialize` (protocol version 1; the SDK offers the agent no file system and no terminal, so the
// agent uses its own tools, which it asks about), `authenticate` when the preset names a method, then
// `session/new` or `session/load`. A turn is a `session/prompt` request whose answer ends it;
// `session/cancel` (a notification) interrupts it, and the prompt then answers `cancelled`.
import type { LiveConnection, LiveConnectContext, LiveRpc } from '../contract/adapter.js';
import type { Attachments } from '../options/attachment-types.js';
import type { ResolvedOpts } from '../../options.js';
import { CoderError, FeatureNotSupportedError } from '../../errors.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { acpPermissionCodec, type AcpPermissionCodec } from './permission.js';
import type { AcpToolKinds } from './tool-facts.js';

/** The ACP version this speaks; the agent answers `initialize` with the one it chose. */
export const ACP_PROTOCOL_VERSION = 1;

export interface AcpClientSpec {
  /** The agent's name in errors. */
  agent: string;
  /** Sent as `authenticate { methodId }` after `initialize` (an id the agent lists in its authMethods). */
  authMethod?: string | undefined;
  toolKinds?: AcpToolKinds | undefined;
}

/** A prompt's ACP content blocks: the text, then each image inline (where the agent takes images). */
function promptBlocks(agent: string, prompt: string, attachments: Attachments | undefined, capabilities: JsonObject | undefined): unknown[] {
  // A preset offers files nowhere (notLive): one that reaches here is refused, never dropped.
  if (attachments?.files.length) throw new FeatureNotSupportedError(agent, 'files', `${agent}'s live sessions take no files; name the path in the prompt.`);
  const images = attachments?.images ?? [];
  if (images.length > 0 && asJsonObject(capabilities?.promptCapabilities)?.image !== true) {
    throw new FeatureNotSupportedError(agent, 'images', `${agent} does not take images in a prompt (its initialize answer has no promptCapabilities.image).`);
  }
  return [{ type: 'text', text: prompt }, ...images.map((image) => ({ type: 'image', mimeType: image.mediaType, data: image.base64 }))];
}

export class AcpConnection implements LiveConnection {
  sessionId: string | undefined;
  readonly permission: AcpPermissionCodec;
  private agentCapabilities: JsonObject | undefined;

  constructor(private readonly rpc: LiveRpc, private readonly spec: AcpClientSpec) {
    this.permission = acpPermissionCodec(spec.agent, spec.toolKinds);
  }

  private protocolError(message: string): CoderError {
    return new CoderError('protocol', message, { provider: this.spec.agent });
  }

  async open({ cwd, session }: LiveConnectContext): Promise<void> {
    const { agent, authMethod } = this.spec;
    const initialized = asJsonObject(
      await this.rpc.request(
        {
          method: 'initialize',
          params: { protocolVersion: ACP_PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'coderline', version: '0' } },
        },
        'initialize',
      ),
    );
    if (initialized?.protocolVersion !== ACP_PROTOCOL_VERSION) {
      throw this.protocolError(`${agent} speaks ACP version ${JSON.stringify(initialized?.protocolVersion)}, this SDK version ${ACP_PROTOCOL_VERSION}`);
    }
    this.agentCapabilities = asJsonObject(initialized.agentCapabilities);
    if (authMethod !== undefined) await this.rpc.request({ method: 'authenticate', params: { methodId: authMethod } }, 'authenticate');
    if (session.kind === 'resume') {
      if (this.agentCapabilities?.loadSession !== true) {
        throw new FeatureNotSupportedError(agent, 'open(options, { sessionId })', `${agent} cannot load a session (its initialize answer has no loadSession): open a new one.`);
      }
      await this.rpc.request({ method: 'session/load', params: { sessionId: session.sessionId, cwd, mcpServers: [] } }, 'session/load');
      this.sessionId = session.sessionId;
      return;
    }
    const id = stringOf(asJsonObject(await this.rpc.request({ method: 'session/new', params: { cwd, mcpServers: [] } }, 'session/new'))?.sessionId);
    if (!id) throw this.protocolError(`${agent} answered session/new without a sessionId`);
    this.sessionId = id;
  }

  /** The prompt's answer (its stop reason) comes when the turn ends: answerRecord makes it the turn's last record. */
  async startTurn(prompt: string, _opts: ResolvedOpts, attachments: Attachments | undefined): Promise<unknown> {
    const blocks = promptBlocks(this.spec.agent, prompt, attachments, this.agentCapabilities);
    return this.rpc.request({ method: 'session/prompt', params: { sessionId: this.sessionId, prompt: blocks } }, 'the prompt', { untimed: true });
  }

  /** A notification without an answer: the prompt then answers `cancelled`, which ends the turn. */
  async interrupt(): Promise<void> {
    this.rpc.notify({ method: 'session/cancel', params: { sessionId: this.sessionId } });
  }

  async setModel(model: string): Promise<void> {
    await this.rpc.request({ method: 'session/set_model', params: { sessionId: this.sessionId, modelId: model } }, 'the model change');
  }

  observe(message: unknown): void {
    this.permission.observe(message);
  }
}
