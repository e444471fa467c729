// A tool's output, typed: translators read it out of a parsed JSON record, so it is JSON.
import type { ToolOutput } from '../../events.js';

/** A part of a parsed JSON record, typed as what it is (a record came from JSON.parse, so it holds only JSON). */
export const parsedJson = (value: unknown): ToolOutput => value as ToolOutput;
