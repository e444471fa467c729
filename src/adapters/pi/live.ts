// pi's live mode: `pi --mode rpc`, one process for many turns. Commands are JSON lines with an `id`
// (`prompt`, `steer`, `abort`, `set_model`), answered by `response` lines with the same id; the
// events between are those of `--mode json` (so the one-shot translator serves), and a run ends
// with `agent_settled` (pi 1.x). pi has no permission prompt of its own: for canUseTool the SDK
// installs an extension whose `tool_call` handler asks the host through an `input` dialog
// (`extension_ui_request` / `extension_ui_response`). Verified on 1.6.0 (cli-notes/pi.md, "Live mode");
// the compatibility sweep's live canaries pass on every swept version from piLiveMinVersion on.
import type { LiveSpec, PermissionCodec, UserInputCodec } from '../../core/contract/adapter.js';
import { answerText, type UserInputQuestion } from '../../user-input.js';
import { isJsonObject, stringOf } from '../../schema/json.js';
import { InvalidOptionsError } from '../../errors.js';
import { buildPiInvocation, piBridgeServedNames } from './argv.js';
import { piToolCatalog } from './tool-facts.js';
import { piLiveTranslation } from './translation.js';
import { withAskedToolFacts } from '../../core/translate/tool-facts.js';
import { piLiveMinVersion } from './versions.js';
import { native } from '../../core/contract/adapter.js';


/** The title of the extension's question: how the host tells it from other extensions' dialogs. */
const QUESTION_TITLE = 'coderline:canUseTool';

/**
 * The extension that puts each tool call to the host; a question that is dismissed or unreadable
 * blocks the call. The tools the bridge serves (`bridgeServed`, pi's names) are not asked here: the
 * bridge asks canUseTool about each of their calls itself, whoever makes it (core/tools/bridge-gate.ts).
 */
export const canUseToolExtension = (bridgeServed: readonly string[]) => [
  '// Written by coderline for a live session with canUseTool; removed when the session closes.',
  'export default function coderlineCanUseTool(pi) {',
  `  const bridgeServed = new Set(${JSON.stringify(bridgeServed)});`,
  "  pi.on('tool_call', async (event, ctx) => {",
  '    if (bridgeServed.has(event.toolName)) return undefined;',
  '    const question = JSON.stringify({ toolName: event.toolName, input: event.input, toolCallId: event.toolCallId });',
  `    const answer = await ctx.ui.input(${JSON.stringify(QUESTION_TITLE)}, question, { signal: ctx.signal });`,
  '    let decision;',
  '    try {',
  "      decision = JSON.parse(answer ?? '');",
  '    } catch {',
  '      decision = undefined;',
  '    }',
  "    if (decision?.behavior === 'allow') {",
  '      // pi runs the input as the handler leaves it.',
  '      if (decision.updatedInput) {',
  '        for (const key of Object.keys(event.input)) delete event.input[key];',
  '        Object.assign(event.input, decision.updatedInput);',
  '      }',
  '      return undefined;',
  '    }',
  "    return { block: true, reason: decision?.message ?? 'The host denied this tool use.' };",
  '  });',
  '}',
  '',
].join('\n');

const permission: PermissionCodec = withAskedToolFacts(piToolCatalog, {
  request(body) {
    if (!isJsonObject(body) || body.method !== 'input' || body.title !== QUESTION_TITLE) return undefined;
    let question: unknown;
    try {
      question = JSON.parse(stringOf(body.placeholder) ?? '');
    } catch {
      return undefined;
    }
    if (!isJsonObject(question) || typeof question.toolName !== 'string') return undefined;
    const toolUseId = stringOf(question.toolCallId);
    return { toolName: question.toolName, input: isJsonObject(question.input) ? question.input : {}, ...(toolUseId ? { toolUseId } : {}) };
  },
  answer: (decision) => ({ value: JSON.stringify(decision) }),
});

/** The key of a dialog's answer: one question per dialog. */
const DIALOG_ANSWER = 'value';
const CONFIRM_OPTIONS = ['Yes', 'No'];

/** A dialog of an extension (select, confirm, input, editor) as a question; the SDK's own canUseTool dialog is not one. */
function dialogQuestion(body: Record<string, unknown>): UserInputQuestion | undefined {
  const title = stringOf(body.title) ?? '';
  switch (body.method) {
    case 'select': {
      const options = Array.isArray(body.options) ? body.options.filter((option): option is string => typeof option === 'string') : [];
      return { id: DIALOG_ANSWER, text: title, options };
    }
    case 'confirm': {
      const message = stringOf(body.message);
      return { id: DIALOG_ANSWER, text: message ? `${title}\n\n${message}` : title, options: CONFIRM_OPTIONS };
    }
    case 'input':
    case 'editor':
      return { id: DIALOG_ANSWER, text: title };
    default:
      return undefined;
  }
}

/**
 * Extension dialogs for onUserInput: the answer is `value` (select, input, editor) or `confirmed`
 * (confirm: "Yes" or true); a decline or no answer is `cancelled`, which the extension reads as undefined / false.
 */
const dialogs: UserInputCodec = {
  request(body) {
    if (!isJsonObject(body) || body.type !== 'extension_ui_request' || body.title === QUESTION_TITLE) return undefined;
    const question = dialogQuestion(body);
    return question && { source: 'dialog', questions: [question] };
  },
  answer(reply, _request, body) {
    if (!('answers' in reply) || !Object.hasOwn(reply.answers, DIALOG_ANSWER)) return { cancelled: true };
    const value = reply.answers[DIALOG_ANSWER];
    if (isJsonObject(body) && body.method === 'confirm') return { confirmed: value === true || value === CONFIRM_OPTIONS[0] };
    return { value: answerText(value) };
  },
};

export const piLive: LiveSpec = {
  ...piLiveTranslation,
  capabilities: {
    open: native('pi --mode rpc; a prompt command per turn, the turn ends at agent_settled'),
    steer: native('steer command: delivered after the running tool or answer, inside the same run'),
    interrupt: native('abort command: the run ends aborted, a running bash command is stopped, the process stays'),
    setModel: native('set_model command (provider from "provider/id" or piProvider)'),
  },
  // 0.73.1 and 0.79.10 print no agent_settled (agent_end is last, and auto-retry may follow it): their
  // turns never end. The sweep's live canaries pass from 0.85.1 on (docs/compat.md).
  minVersion: piLiveMinVersion,
  launchOnly: [],
  // RPC takes images with a prompt, but no files (rpc mode refuses @file arguments).
  notLive: ['outputSchema', 'files'],
  async buildInvocation(ctx) {
    const { args, env } = await buildPiInvocation(ctx, 'rpc');
    if (ctx.opts.canUseTool) args.push('-e', await ctx.writeTempFile('coderline-can-use-tool.mjs', canUseToolExtension(piBridgeServedNames(ctx.toolBridge))));
    return env ? { args, env } : { args };
  },
  userMessage(prompt, steerId, _sessionId, attachments) {
    if (steerId) return { type: 'steer', message: prompt };
    const images = (attachments?.images ?? []).map((image) => ({ type: 'image', data: image.base64, mimeType: image.mediaType }));
    return { type: 'prompt', message: prompt, ...(images.length ? { images } : {}) };
  },
  userMessageIsRequest: true,
  // rpc mode prints no session header: get_state names the session (a resumed one keeps its id).
  sessionIdRequest: { body: { type: 'get_state' }, idOf: (answer) => (isJsonObject(answer) ? stringOf(answer.sessionId) : undefined) },
  // A pushed message shows as the run's next user message_end (the translator's user_message).
  echoesSteer: true,
  interruptRequest: { type: 'abort' },
  setModelRequest(model, opts) {
    const slash = model.indexOf('/');
    const provider = slash > 0 ? model.slice(0, slash) : opts.piProvider;
    if (!provider) throw new InvalidOptionsError(['pi setModel() needs "provider/model" or the piProvider option'], 'pi');
    return { type: 'set_model', provider, modelId: slash > 0 ? model.slice(slash + 1) : model };
  },
  permission,
  userInput: dialogs,
};
