// Claude Code's live mode: `claude -p --input-format stream-json --output-format stream-json`, one
// process for many turns. User lines go to stdin; the same stream-json records as a one-shot run come
// back (so the one-shot translator serves), one `result` per turn; control requests and responses
// share the pipes (interrupt, set_model, set_permission_mode, and with `--permission-prompt-tool stdio`
// the CLI's `can_use_tool` questions). Verified on 2.1.252 and 2.1.332 (cli-notes/claude.md, "Live mode");
// the compatibility sweep's live canaries pass on every swept version from claudeLiveMinVersion on.
import type { LiveSpec } from '../../core/contract/adapter.js';
import { isJsonObject, stringOf } from '../../schema/json.js';
import { CoderError } from '../../errors.js';
import { pickPermissionMode, type PermissionModeMapping } from '../../core/options/permission-mode.js';
import { claudePermissionModes } from '../../options.js';
import { buildClaudeInvocation, userMessageWith } from './argv.js';
import { claudePermission } from './permission.js';
import { claudeStoreHas } from './store.js';
import { claudeUserInput } from './user-input.js';
import { claudeLiveTranslation } from './translation.js';
import { claudeLiveMinVersion } from './versions.js';
import { native } from '../../core/contract/adapter.js';


/**
 * Every mode goes to the CLI as it is. With canUseTool the ones that run tools unasked are refused:
 * 2.1.332 wrote a file under acceptEdits without asking the callback (auto approves by its own
 * classifier, bypassPermissions everything).
 */
const permissionModes: PermissionModeMapping<string> = {
  modes: Object.fromEntries(claudePermissionModes.map((mode) => [mode, mode])),
  unasked: ['acceptEdits', 'bypassPermissions', 'auto'],
};

export const claudeLive: LiveSpec = {
  ...claudeLiveTranslation,
  capabilities: {
    open: native('claude -p --input-format stream-json --output-format stream-json --verbose; a user line on stdin per turn'),
    interrupt: native('control_request interrupt: the turn ends, a running Bash command is killed by the CLI, the process stays'),
    steer: {
      ...native('a user line (with a uuid) while the turn runs: while a tool runs the CLI adds it to the tool result; otherwise it runs right after, and the turn (one RunResult) lasts until it has'),
      // 2.1.197 prints no command_lifecycle records, so a turn with a pushed message never ends (the sweep's live steer canary).
      since: '2.1.218',
    },
    setModel: native('control_request set_model (2.1.332 spends one model request checking the new model)'),
    setPermissionMode: native('control_request set_permission_mode, from the next tool use (bypassPermissions only when launched with it); with canUseTool, acceptEdits, auto and bypassPermissions are refused (they run tools unasked)'),
  },
  minVersion: claudeLiveMinVersion,
  launchOnly: ['outputSchema', 'strictSchema', 'streamPartialMessages', 'maxTurns'],
  async buildInvocation(ctx) {
    // The CLI would start and fail only the first turn: a session that is in no project of the store
    // fails open() instead, as a refused handshake does on the other CLIs.
    if (ctx.session.kind === 'resume' && !(await claudeStoreHas(ctx, ctx.session.sessionId))) {
      throw new CoderError('session_not_found', `claude found no session "${ctx.session.sessionId}" in its store (resume needs the same config dir)`, { provider: 'claude' });
    }
    const { args, env } = await buildClaudeInvocation(ctx);
    args.push('--input-format=stream-json');
    // The CLI asks the host over the pipes only with this; without it, a tool that needs asking is refused
    // and AskUserQuestion is disabled ("No such tool available").
    if (ctx.opts.canUseTool || ctx.opts.onUserInput) args.push('--permission-prompt-tool=stdio');
    return env ? { args, env } : { args };
  },
  // A uuid makes the CLI report the message's `command_lifecycle` (queued, started, completed).
  // Attachments are content blocks before the text, as in a one-shot run.
  userMessage: (prompt, steerId, _sessionId, attachments) => ({ ...userMessageWith(prompt, attachments), ...(steerId ? { uuid: steerId } : {}) }),
  steerStarted: (record) =>
    isJsonObject(record) && record.type === 'command_lifecycle' && record.state !== 'queued' ? stringOf(record.command_uuid) : undefined,
  interruptRequest: { subtype: 'interrupt' },
  setModelRequest: (model) => ({ subtype: 'set_model', model }),
  setPermissionModeRequests: (mode, opts) => [{ subtype: 'set_permission_mode', mode: pickPermissionMode('claude', permissionModes, mode, opts) }],
  permission: {
    request: (body) => (isJsonObject(body) && body.subtype === 'can_use_tool' ? claudePermission.request(body) : undefined),
    answer: claudePermission.answer,
  },
  userInput: {
    request: (body) => (isJsonObject(body) && body.subtype === 'can_use_tool' ? claudeUserInput.request(body) : undefined),
    answer: claudeUserInput.answer,
  },
};
