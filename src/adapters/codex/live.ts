// Codex's live mode: `codex app-server`, JSON-RPC over stdio (the replies carry no "jsonrpc" field;
// ours may). After `initialize` / `initialized` one thread is opened (`thread/start`, or
// `thread/resume` for a session opened again); each turn is `turn/start` on it, whose answer carries
// the turn id that `turn/interrupt` and `turn/steer` name, and ends with `turn/completed`. With
// canUseTool the thread's approval policy is `untrusted`, under which every command and file change
// is put to the host (`item/commandExecution/requestApproval`, `item/fileChange/requestApproval`),
// answered `accept` or `decline`. Verified on 0.171.0 against the fake Responses server
// (cli-notes/codex.md, "Live mode (probed)"; `codex app-server generate-json-schema`); the compatibility
// sweep's live canaries pass on every swept version from codexLiveMinVersion on.
import type { Attachments } from '../../core/options/attachments.js';
import type { LiveConnection, LiveConnectContext, LiveRpc, LiveSpec, PermissionCodec } from '../../core/contract/adapter.js';
import { isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import type { PermissionRequest } from '../../permission.js';
import { pickPermissionMode, type PermissionModeMapping, type PermissionModeName } from '../../core/options/permission-mode.js';
import { CoderError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import { configEnv, configFlag, sharedConfigArgs } from './argv.js';
import { execItemOf } from './live-translate.js';
import { codexItemToolCatalog } from './tool-facts.js';
import { codexLiveTranslation } from './translation.js';
import { withAskedToolFacts } from '../../core/translate/tool-facts.js';
import { codexLiveMinVersion } from './versions.js';
import { native } from '../../core/contract/adapter.js';


/** The sandbox of the thread, as `sandboxFlags` chooses it for `codex exec`. */
function sandboxMode(opts: ResolvedOpts): string {
  if (opts.codexDangerouslyBypassApprovalsAndSandbox || opts.permissionPolicy?.mode === 'bypass') return 'danger-full-access';
  if (opts.permissionPolicy?.mode === 'plan') return 'read-only';
  return opts.codexSandbox ?? 'workspace-write';
}

/** A sandbox mode (`codex exec --sandbox`) as the sandbox policy `turn/start` takes. */
const sandboxPolicyOf = (mode: string) =>
  ({ type: mode === 'read-only' ? 'readOnly' : mode === 'danger-full-access' ? 'dangerFullAccess' : 'workspaceWrite' });

/**
 * setPermissionMode() on codex: the sandbox of the next turns (`turn/start` sandboxPolicy, which the
 * thread keeps). The approval policy stays as open() set it, so with canUseTool every command and file
 * change is still asked about; bypassPermissions (no sandbox, approval "never") is refused then.
 */
function permissionModes(opts: ResolvedOpts): PermissionModeMapping<{ type: string }> {
  return {
    modes: { plan: sandboxPolicyOf('read-only'), default: sandboxPolicyOf(opts.codexSandbox ?? 'workspace-write'), bypassPermissions: sandboxPolicyOf('danger-full-access') },
    unasked: ['bypassPermissions'],
  };
}

const textInput = (prompt: string) => [{ type: 'text', text: prompt, text_elements: [] }];

/** A turn's input: the text, then each image as a `localImage` item (the app-server reads the file). */
const turnInput = (prompt: string, attachments: Attachments | undefined) => [
  ...textInput(prompt),
  ...(attachments?.images ?? []).map((image) => ({ type: 'localImage', path: image.absolutePath })),
];

/** The question of an approval request; file changes name only their item, described when it started. */
function approvalQuestion(body: unknown, startedItems: ReadonlyMap<string, JsonObject>): PermissionRequest | undefined {
  if (!isJsonObject(body) || !isJsonObject(body.params)) return undefined;
  const { params } = body;
  const toolUseId = stringOf(params.itemId);
  const description = stringOf(params.reason);
  const extra = { ...(toolUseId ? { toolUseId } : {}), ...(description ? { description } : {}) };
  if (body.method === 'item/commandExecution/requestApproval') {
    return { toolName: 'command_execution', input: { command: params.command, cwd: params.cwd }, ...extra };
  }
  if (body.method === 'item/fileChange/requestApproval') {
    const item = toolUseId === undefined ? undefined : startedItems.get(toolUseId);
    const changes = item ? execItemOf(item)?.changes : undefined;
    return { toolName: 'file_change', input: { changes: changes ?? [] }, ...extra };
  }
  return undefined;
}

function permissionCodec(startedItems: ReadonlyMap<string, JsonObject>): PermissionCodec {
  return withAskedToolFacts(codexItemToolCatalog, {
    request: (body) => approvalQuestion(body, startedItems),
    // Codex takes no message with a refusal: the model reads "rejected by user".
    answer: (decision) => ({ decision: decision.behavior === 'allow' ? 'accept' : 'decline' }),
    refuses: (decision) =>
      decision.behavior === 'allow' && decision.updatedInput
        ? 'codex cannot run a changed input (its approvals are accept or decline), so the tool use was declined'
        : undefined,
  });
}

/** One app-server thread: its id, the running turn's id, and the model the next turn switches to. */
class CodexThread implements LiveConnection {
  sessionId: string | undefined;
  private turnId: string | undefined;
  /** The running turn's `turn/start`, until it is answered (an interrupt waits for its id). */
  private starting: Promise<unknown> | undefined;
  private nextModel: string | undefined;
  private nextSandbox: { type: string } | undefined;
  private opts: ResolvedOpts = {};
  /** Items of the running turn, by id, as they started (a file change's approval names only its id). */
  private readonly startedItems = new Map<string, JsonObject>();
  readonly permission: PermissionCodec = permissionCodec(this.startedItems);

  constructor(private readonly rpc: LiveRpc) {}

  async open({ opts, session, cwd }: LiveConnectContext): Promise<void> {
    this.opts = opts;
    await this.rpc.request({ method: 'initialize', params: { clientInfo: { name: 'coderline', title: null, version: '0' }, capabilities: { experimentalApi: false } } }, 'initialize');
    this.rpc.notify({ method: 'initialized' });
    const settings = { cwd, sandbox: sandboxMode(opts), approvalPolicy: opts.canUseTool ? 'untrusted' : 'never' };
    if (session.kind !== 'new' && session.kind !== 'resume') throw new CoderError('invalid_options', `codex: a live session opens a new thread or resumes one by id, not "${session.kind}"`, { provider: 'codex' });
    const result = session.kind === 'resume'
      ? await this.rpc.request({ method: 'thread/resume', params: { threadId: session.sessionId, ...settings } }, 'thread/resume')
      : await this.rpc.request({ method: 'thread/start', params: settings }, 'thread/start');
    const thread = isJsonObject(result) && isJsonObject(result.thread) ? result.thread : {};
    this.sessionId = stringOf(thread.id);
    if (this.sessionId === undefined) throw new CoderError('protocol', `codex opened no thread: ${JSON.stringify(result)}`, { provider: 'codex' });
  }

  async startTurn(prompt: string, _opts: ResolvedOpts, attachments: Attachments | undefined): Promise<void> {
    const params = {
      threadId: this.sessionId,
      input: turnInput(prompt, attachments),
      ...(this.nextModel ? { model: this.nextModel } : {}),
      ...(this.nextSandbox ? { sandboxPolicy: this.nextSandbox } : {}),
    };
    this.turnId = undefined;
    this.startedItems.clear();
    this.starting = this.rpc.request({ method: 'turn/start', params }, 'turn/start');
    const result = await this.starting;
    // What this turn carried stays for the next ones (the thread keeps it); a change made while
    // turn/start was on its way is for the next turn.
    if (this.nextModel === params.model) this.nextModel = undefined;
    if (this.nextSandbox === params.sandboxPolicy) this.nextSandbox = undefined;
    this.turnId ??= isJsonObject(result) && isJsonObject(result.turn) ? stringOf(result.turn.id) : undefined;
  }

  async interrupt(): Promise<void> {
    await this.starting?.catch(() => undefined);
    if (this.turnId === undefined) return;
    await this.rpc.request({ method: 'turn/interrupt', params: { threadId: this.sessionId, turnId: this.turnId } }, 'the interrupt');
  }

  async steer(prompt: string): Promise<void> {
    await this.starting;
    await this.rpc.request({ method: 'turn/steer', params: { threadId: this.sessionId, expectedTurnId: this.turnId, input: textInput(prompt) } }, 'the steer');
  }

  async setModel(model: string): Promise<void> {
    this.nextModel = model;
  }

  async setPermissionMode(mode: PermissionModeName): Promise<void> {
    this.nextSandbox = pickPermissionMode('codex', permissionModes(this.opts), mode, this.opts);
  }

  observe(message: unknown): void {
    if (!isJsonObject(message) || !isJsonObject(message.params)) return;
    const { params } = message;
    if (message.method === 'turn/started' && isJsonObject(params.turn)) this.turnId = stringOf(params.turn.id) ?? this.turnId;
    if (message.method === 'item/started' && isJsonObject(params.item)) {
      const id = stringOf(params.item.id);
      if (id !== undefined) this.startedItems.set(id, params.item);
    }
  }
}

export const codexLive: LiveSpec = {
  ...codexLiveTranslation,
  capabilities: {
    open: native('codex app-server (JSON-RPC on stdio): initialize, thread/start (thread/resume for a session id), turn/start per turn; the turn ends at turn/completed'),
    interrupt: native('turn/interrupt; the command a turn leaves running (Codex does not stop it) is stopped by the SDK'),
    steer: native('turn/steer: the message joins the running turn after the running tool, one turn/completed'),
    setModel: native('the next turn/start carries the model (the thread keeps it)'),
    setPermissionMode: native('the next turn/start carries the sandbox policy (the thread keeps it): plan → readOnly, default → the codexSandbox chosen (workspaceWrite), bypassPermissions → dangerFullAccess, refused with canUseTool; other modes are an InvalidOptionsError'),
  },
  minVersion: codexLiveMinVersion,
  launchOnly: [],
  // Exec flags the app-server has no per-thread form for in this SDK yet.
  notLive: ['outputSchema', 'strictSchema', 'codexImages', 'files', 'addDirs', 'codexEphemeral', 'codexIgnoreUserConfig', 'codexIgnoreRules'],
  async buildInvocation(ctx) {
    const args = ['app-server'];
    if (ctx.opts.codexDisablePlugins) args.push('--disable', 'plugins');
    if (ctx.opts.model) args.push(...configFlag('model', ctx.opts.model));
    args.push(...(await sharedConfigArgs(ctx)), ...(ctx.opts.extraArgs ?? []));
    const env = configEnv(ctx);
    return env ? { args, env } : { args };
  },
  // Only an approval request is asked of the host; the thread's own codec names file changes.
  permission: permissionCodec(new Map()),
  async connect(rpc, ctx) {
    const thread = new CodexThread(rpc);
    await thread.open(ctx);
    return thread;
  },
  // 0.171.0's refusal of thread/resume for a thread this CODEX_HOME lacks.
  sessionNotFound: /no rollout found for thread id/i,
  // A pushed message shows as the turn's next userMessage item (the translator's user_message).
  echoesSteer: true,
  // 0.171.0 leaves a running command alive after turn/interrupt; it finishes after the turn ended.
  interruptLeavesCommands: true,
};
