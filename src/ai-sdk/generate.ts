// doGenerate as the stream read to its end: the same parts, gathered into the spec's content list (text
// and reasoning blocks joined by id, in the order they started), so both calls see one translation.
import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, SharedV4Warning } from '@ai-sdk/provider';

export async function collectParts(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<LanguageModelV4GenerateResult> {
  const content: LanguageModelV4Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  let warnings: SharedV4Warning[] = [];
  let response: LanguageModelV4GenerateResult['response'];
  let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'stream-start':
          warnings = part.warnings;
          break;
        case 'response-metadata': {
          const { type: _type, ...metadata } = part;
          response = metadata;
          break;
        }
        case 'text-start':
        case 'reasoning-start': {
          const block = { type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const), text: '' };
          open.set(part.id, block);
          content.push(block);
          break;
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const block = open.get(part.id);
          if (block) block.text += part.delta;
          break;
        }
        case 'tool-call':
        case 'tool-result':
        case 'custom':
          content.push(part);
          break;
        case 'finish':
          finish = part;
          break;
        case 'error':
          throw part.error;
        default:
          break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (!finish) throw new Error('coderline: the run ended without a finish');
  return { content, finishReason: finish.finishReason, usage: finish.usage, ...(finish.providerMetadata ? { providerMetadata: finish.providerMetadata } : {}), ...(response ? { response } : {}), warnings };
}
