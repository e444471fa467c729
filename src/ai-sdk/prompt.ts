// The spec's message list as one turn of a CLI agent. A new session gets the whole conversation,
// rendered as a transcript before the last user message; a resumed session already holds the history
// in the CLI's store, so only what follows the last assistant message is sent (nothing twice).
import type { LanguageModelV4FilePart, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput, SharedV4Warning } from '@ai-sdk/provider';
import { InvalidOptionsError, type AdapterSpec } from '../index.js';

type Message = LanguageModelV4Prompt[number];
type Content = Exclude<Message, { role: 'system' }>['content'][number];

export interface RenderedPrompt {
  text: string;
  /** The system messages, joined: for the CLI's appended system prompt. */
  system: string | undefined;
  /** File parts of the messages sent now, to attach (earlier ones are named in the transcript only). */
  files: LanguageModelV4FilePart[];
  warnings: SharedV4Warning[];
}

function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return `denied${output.reason ? `: ${output.reason}` : ''}`;
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  }
}

function fileLabel(part: LanguageModelV4FilePart): string {
  return `[file ${part.filename ? `${part.filename} ` : ''}(${part.mediaType}) sent earlier]`;
}

/** One part as transcript text (files of earlier messages are named, not sent again). */
function partText(part: Content): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'file':
      return part.data.type === 'text' ? part.data.text : fileLabel(part);
    case 'tool-call':
      return `[called tool ${part.toolName} with ${JSON.stringify(part.input)}]`;
    case 'tool-result':
      return `[tool ${part.toolName} returned: ${toolOutputText(part.output)}]`;
    default:
      // Reasoning, approval answers and custom parts are the model's own bookkeeping, not conversation.
      return undefined;
  }
}

function messageText(message: Exclude<Message, { role: 'system' }>): string {
  return (message.content as Content[]).map(partText).filter((text) => text !== undefined).join('\n');
}

/** The text and the files of the messages sent now: inline text files go in the text, others are attached. */
function currentTurn(messages: ReadonlyArray<Exclude<Message, { role: 'system' }>>): { text: string; files: LanguageModelV4FilePart[] } {
  const texts: string[] = [];
  const files: LanguageModelV4FilePart[] = [];
  for (const message of messages) {
    for (const part of message.content as Content[]) {
      if (part.type === 'file' && part.data.type !== 'text') files.push(part);
      else {
        const text = partText(part);
        if (text !== undefined) texts.push(text);
      }
    }
  }
  return { text: texts.join('\n'), files };
}

export function renderPrompt(prompt: LanguageModelV4Prompt, resume: boolean): RenderedPrompt {
  const warnings: SharedV4Warning[] = [];
  const systems = prompt.filter((message) => message.role === 'system').map((message) => message.content);
  const conversation = prompt.filter((message): message is Exclude<Message, { role: 'system' }> => message.role !== 'system');
  const lastAssistant = conversation.map((message) => message.role).lastIndexOf('assistant');
  // What the agent has not seen yet: everything after its last answer.
  const now = conversation.slice(lastAssistant + 1);
  if (!now.some((message) => message.role === 'user')) {
    throw new InvalidOptionsError(['the prompt must end with a user message after the last assistant message: that is the turn the agent runs']);
  }
  const earlier = resume ? [] : conversation.slice(0, lastAssistant + 1);
  const turn = currentTurn(now);
  let text = turn.text;
  if (earlier.length) {
    const transcript = earlier.map((message) => `<${message.role}>\n${messageText(message)}\n</${message.role}>`).join('\n');
    text = `The conversation so far, oldest first:\n${transcript}\n\nThe user now says:\n${text}`;
    warnings.push({
      type: 'compatibility',
      feature: 'messages',
      details: 'the earlier messages are rendered as a transcript in one turn of a new session; providerOptions.coderline.sessionId resumes a session that holds them instead',
    });
  }
  return { text, system: systems.length ? systems.join('\n\n') : undefined, files: turn.files, warnings };
}

/**
 * Where the system messages go: appended to the CLI's system prompt (after the model's own
 * `appendSystemPrompt` setting) where it takes one, else at the head of the prompt, with a warning.
 */
export function placeSystem(adapter: AdapterSpec<string>, rendered: RenderedPrompt, configured: string | undefined): { text: string; appendSystemPrompt?: string; warnings: SharedV4Warning[] } {
  if (rendered.system === undefined) return { text: rendered.text, warnings: [] };
  if (adapter.capabilities.appendSystemPrompt) {
    return { text: rendered.text, appendSystemPrompt: configured === undefined ? rendered.system : `${configured}\n\n${rendered.system}`, warnings: [] };
  }
  return {
    text: `<system>\n${rendered.system}\n</system>\n\n${rendered.text}`,
    warnings: [{ type: 'compatibility', feature: 'system messages', details: `${adapter.name} takes no system prompt from its caller: the system messages open the prompt` }],
  };
}
