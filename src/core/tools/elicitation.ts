// MCP elicitations answered on the host: a custom tool's `ctx.elicit()` and an `mcpServers` server's
// `elicitation/create` both reach the run's onUserInput as one question (id `content`, the message as
// its text, the requested schema as its schema), whose answer is the content object. The CLI is not
// involved, so this holds on every CLI alike.
import type { ElicitRequest, ElicitResult } from '../../tool.js';
import { isJsonObject } from '../../schema/json.js';
import type { TranslatedEvent } from '../../events.js';
import type { UserInputReply, UserInputRequest } from '../../user-input.js';

/** The run's onUserInput as the bridge reaches it: asked with its timeout and events, and the run's events. */
export interface UserInputHost {
  ask(request: UserInputRequest, signal: AbortSignal, raw: unknown): Promise<UserInputReply>;
  emit(event: TranslatedEvent): void;
}

/** The question id of an elicitation: its answer is the content object. */
export const ELICITATION_QUESTION_ID = 'content';

/** A request a handler passed to ctx.elicit(), checked: a bad one is the handler's error. */
export function checkElicitRequest(request: unknown): ElicitRequest {
  if (!isJsonObject(request) || typeof request.message !== 'string') throw new TypeError('ctx.elicit() needs { message: string, schema?: object }');
  if (request.schema !== undefined && (!isJsonObject(request.schema) || request.schema.type !== 'object')) throw new TypeError('ctx.elicit(): schema must be an object JSON Schema ({ type: "object", properties })');
  return request as unknown as ElicitRequest;
}

/**
 * Puts an elicitation to the user. No onUserInput, no answer, or an answer that is not an object
 * (reported as a non-fatal error event) is `cancel`: nobody gave content.
 */
export async function elicitFromHost(host: UserInputHost | undefined, server: string, request: ElicitRequest, signal: AbortSignal, raw: unknown): Promise<ElicitResult> {
  if (!host) return { action: 'cancel' };
  const question = { id: ELICITATION_QUESTION_ID, text: request.message, ...(request.schema ? { schema: { ...request.schema } } : {}) };
  const reply = await host.ask({ source: 'elicitation', server, questions: [question] }, signal, raw);
  if ('decline' in reply) return { action: 'decline' };
  if ('noAnswer' in reply) return { action: 'cancel' };
  const content = reply.answers[ELICITATION_QUESTION_ID];
  if (content === undefined && !request.schema) return { action: 'accept', content: {} };
  if (isJsonObject(content)) return { action: 'accept', content };
  host.emit({ type: 'error', code: 'invalid_options', fatal: false, message: `onUserInput answered an elicitation of ${server} with ${JSON.stringify(content) ?? 'nothing'} under answers.${ELICITATION_QUESTION_ID}; expected the content object, so the server was told nobody answered`, raw });
  return { action: 'cancel' };
}
