// A prompt's answer as a record of the turn: ACP ends a turn by answering `session/prompt` (with its
// stop reason), not with a notification, so the live host wraps that answer as the turn's last record.
// Pure: replay routes recorded lines by it.
import { asJsonObject } from '../../schema/json.js';

/** The record a prompt's answer becomes: `isAcpAnswer` knows it by its `result`, which no notification has. */
export function acpAnswerRecord(answer: unknown): unknown {
  return { jsonrpc: '2.0', result: answer };
}

export function isAcpAnswer(record: unknown): boolean {
  const object = asJsonObject(record);
  return object !== undefined && 'result' in object && !('method' in object);
}
