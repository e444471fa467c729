// Claude's AskUserQuestion, as it reaches the host: a permission question (`can_use_tool` over the
// pipes, or the permission prompt tool's arguments on a one-shot run) for tool `AskUserQuestion`,
// whose input holds `questions: [{ question, header, options: [{ label, description }], multiSelect }]`.
// The answer is an allow whose updatedInput adds `answers` (question text → label(s) or free text);
// the model then reads "Your questions have been answered: "<question>"="<answer>". …". A deny's
// message is what the model reads otherwise. Measured on 2.1.332 (test/claude/user-input.test.ts).
import type { UserInputCodec } from '../../core/contract/adapter.js';
import { isJsonObject, stringOf } from '../../schema/json.js';
import { answerText, type UserInputQuestion } from '../../user-input.js';

export const ASK_TOOL = 'AskUserQuestion';

function questionOf(value: unknown): UserInputQuestion | undefined {
  if (!isJsonObject(value)) return undefined;
  const text = stringOf(value.question);
  if (text === undefined) return undefined;
  const options = Array.isArray(value.options) ? value.options.flatMap((option) => (isJsonObject(option) && typeof option.label === 'string' ? [option.label] : [])) : [];
  return { id: text, text, ...(options.length ? { options } : {}), ...(value.multiSelect === true ? { multiSelect: true } : {}) };
}

export const claudeUserInput: UserInputCodec = {
  request(body) {
    if (!isJsonObject(body) || body.tool_name !== ASK_TOOL || !isJsonObject(body.input) || !Array.isArray(body.input.questions)) return undefined;
    const questions = body.input.questions.map(questionOf);
    if (questions.length === 0 || questions.some((question) => question === undefined)) return undefined;
    const toolUseId = stringOf(body.tool_use_id);
    return { source: 'tool', questions: questions as UserInputQuestion[], ...(toolUseId ? { toolUseId } : {}) };
  },
  answer(reply, request, body) {
    if ('noAnswer' in reply) return { behavior: 'deny', message: 'Nobody answered the question; go on without the answer.' };
    if ('decline' in reply) return { behavior: 'deny', message: 'The user declined to answer.' };
    const input = isJsonObject(body) && isJsonObject(body.input) ? body.input : {};
    // Only the questions asked, keyed as the CLI keys them.
    const answers = Object.fromEntries(request.questions.flatMap((question) => (Object.hasOwn(reply.answers, question.id) ? [[question.id, answerText(reply.answers[question.id])]] : [])));
    return { behavior: 'allow', updatedInput: { ...input, answers } };
  },
};
