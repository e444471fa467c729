// coderline/replay: recorded lines → events, anywhere JavaScript runs. Nothing this entry imports,
// directly or through what it imports, is a Node built-in or starts a process (test/replay checks it
// in a browser), so a web page or an edge worker can render a recorded session with the same
// translators a run uses.
export { replay, replayLive, type ReplayClock, type ReplayOptions, type TranslationRef } from './replay.js';
export { formatRecording, parseRecording, type LineDirection, type LiveRecording, type RecordedLine, type RecordingMeta } from './live-recording.js';
export { builtInTranslations } from './translations.js';
export { createClaudeTranslator } from '../adapters/claude/translate.js';
export { createCodexTranslator } from '../adapters/codex/translate.js';
export { createCodexLiveTranslator } from '../adapters/codex/live-translate.js';
export { createCopilotTranslator } from '../adapters/copilot/translate.js';
export { createCopilotAcpTranslator } from '../adapters/copilot/acp-translate.js';
export { createPiTranslator } from '../adapters/pi/translate.js';
export { createOpencodeTranslator } from '../adapters/opencode/translate.js';
export type { LiveTranslation, SessionTarget, TranslationSpec, Translator, TranslatorContext } from '../core/contract/adapter.js';
export type * from '../events.js';
export { CoderError, FeatureNotSupportedError, InvalidOptionsError } from '../errors.js';
