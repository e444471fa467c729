// Reading fields of parsed JSON records whose shape is not trusted: every translator does this.
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value when it is a JSON object, else undefined. */
export const asJsonObject = (value: unknown): JsonObject | undefined => (isJsonObject(value) ? value : undefined);

/** The value when it is a string, else undefined. */
export const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The value when it is a finite number, else 0: for counts (tokens, costs) a missing field adds nothing. */
export const countOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The text of content blocks (`[{type: 'text', text}, …]`, as in tool results and MCP results),
 * joined; undefined when the value is not such a list or holds a block of another kind (an image…).
 */
export function textOfBlocks(blocks: unknown): string | undefined {
  if (!Array.isArray(blocks)) return undefined;
  const texts = blocks.map((block: unknown) => (isJsonObject(block) && block.type === 'text' ? stringOf(block.text) : undefined));
  return texts.every((text) => text !== undefined) ? texts.join('') : undefined;
}
