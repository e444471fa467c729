// A prompt's answer as a record of the turn: ACP ends a turn by answering `session/prompt` (with its
// stop reason), not with a notification, so the live host wraps that answer as the turn's last record.
// Pure: replay routes recorded lines by it.
import { asJsonObject } from '../../schema/json.js';

/** The record a prompt's answer becomes: `isAcpAnswer` knows it by its `result` (or `error`), which no notification has. */
export function acpAnswerRecord(answer: unknown): unknown {
  return { jsonrpc: '2.0', result: answer };
}

/** A refused prompt as a record: the agent's error message, which the translator reads as how the turn failed. */
export function acpRefusalRecord(error: string): unknown {
  return { jsonrpc: '2.0', error: { message: error } };
}

export function isAcpAnswer(record: unknown): boolean {
  const object = asJsonObject(record);
  return object !== undefined && ('result' in object || 'error' in object) && !('method' in object);
}
