// `session/request_permission` → canUseTool, for every ACP agent. The agent offers options, each with
// a kind (allow_once, allow_always, reject_once, reject_always) and an id of its own choosing
// (Copilot: `allow_once`; Gemini: `proceed_once`): the answer picks by kind, never by a guessed id.
// Only the once-kinds are taken: an "always" would let later calls run that the callback never sees.
// One codec per connection: the question names a tool call that an earlier `tool_call` update may
// have described more fully, and the answer needs the options of its own question.
import type { PermissionCodec } from '../contract/adapter.js';
import type { PermissionRequest } from '../../permission.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { acpToolFacts, acpToolName, type AcpToolKinds } from './tool-facts.js';

export interface AcpPermissionCodec extends PermissionCodec {
  /** Sees each message from the agent, to know the tool calls a later question names by id. */
  observe(message: unknown): void;
}

/** The optionId of the first option of `kind`. */
function optionOf(options: unknown, kind: string): string | undefined {
  if (!Array.isArray(options)) return undefined;
  return options.map(asJsonObject).map((option) => (stringOf(option?.kind) === kind ? stringOf(option?.optionId) : undefined)).find((id) => id !== undefined);
}

/** The body of a `session/update` notification about a tool call. */
function toolCallUpdate(message: unknown): JsonObject | undefined {
  const record = asJsonObject(message);
  if (record?.method !== 'session/update') return undefined;
  const update = asJsonObject(asJsonObject(record.params)?.update);
  return update?.sessionUpdate === 'tool_call' || update?.sessionUpdate === 'tool_call_update' ? update : undefined;
}

export function acpPermissionCodec(agent: string, kinds: AcpToolKinds | undefined): AcpPermissionCodec {
  /** Announced tool calls by id, until a question names them. */
  const announced = new Map<string, JsonObject>();
  /** Each question's options, for its answer. */
  const offered = new WeakMap<PermissionRequest, unknown>();
  const allowOnce = (request: PermissionRequest) => optionOf(offered.get(request), 'allow_once');
  return {
    observe(message) {
      const update = toolCallUpdate(message);
      const id = stringOf(update?.toolCallId);
      if (!update || !id) return;
      if (update.sessionUpdate === 'tool_call') announced.set(id, update);
      // A finished call is asked about no more.
      else if (update.status === 'completed' || update.status === 'failed') announced.delete(id);
    },
    request(body) {
      const question = asJsonObject(body);
      if (question?.method !== 'session/request_permission') return undefined;
      const params = asJsonObject(question.params);
      const asked = asJsonObject(params?.toolCall);
      if (!asked) return undefined;
      const toolUseId = stringOf(asked.toolCallId);
      // The question's own fields win: it may name the call after its announcement changed.
      const earlier = toolUseId ? announced.get(toolUseId) : undefined;
      if (toolUseId) announced.delete(toolUseId);
      const toolCall = { ...earlier, ...Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== undefined && value !== null)) };
      const description = stringOf(toolCall.title);
      const request: PermissionRequest = {
        toolName: acpToolName(toolCall),
        input: asJsonObject(toolCall.rawInput) ?? {},
        tool: acpToolFacts(toolCall, kinds),
        ...(toolUseId ? { toolUseId } : {}),
        ...(description ? { description } : {}),
      };
      offered.set(request, params?.options);
      return request;
    },
    answer(decision, request) {
      const options = offered.get(request);
      const optionId = decision.behavior === 'allow' ? allowOnce(request) : (optionOf(options, 'reject_once') ?? optionOf(options, 'reject_always'));
      // No option of that kind: `cancelled`, which every agent takes as "do not run it".
      return optionId === undefined ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } };
    },
    refuses(decision, request) {
      if (decision.behavior !== 'allow') return undefined;
      if (decision.updatedInput) return `${agent} cannot run a changed input (ACP answers with an option id only), so the tool use was denied`;
      return request && allowOnce(request) === undefined ? `${agent} offered no allow_once option for this tool use, so it was denied` : undefined;
    },
  };
}
