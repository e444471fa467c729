// An ACP agent's pure face (coderline/replay): how its recorded lines are routed, where a turn ends,
// and its translator, with nothing that starts a process.
import type { LiveTranslation } from '../contract/adapter.js';
import { jsonRpc } from '../contract/json-rpc.js';
import { acpAnswerRecord, acpRefusalRecord, isAcpAnswer } from './answer.js';
import type { AcpTranslationSpec } from './dialect.js';
import { createAcpTranslator } from './translate.js';

/** One per agent: a live session and the replay of its recording route lines through the very same functions. */
const made = new WeakMap<AcpTranslationSpec, LiveTranslation>();

/** The prompt's answer (its stop reason) ends a turn: answerRecord makes it the turn's last record. */
export function acpLiveTranslation(translation: AcpTranslationSpec): LiveTranslation {
  let live = made.get(translation);
  if (!live) {
    live = {
      dialect: jsonRpc,
      createSessionTranslator: (ctx) => createAcpTranslator(translation, ctx),
      answerRecord: acpAnswerRecord,
      refusalRecord: acpRefusalRecord,
      questionsAreRecords: true,
      endsTurn: isAcpAnswer,
    };
    made.set(translation, live);
  }
  return live;
}
