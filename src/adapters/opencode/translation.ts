// OpenCode's pure face (coderline/replay): the translator, with nothing that starts a process or
// reads a file, so a recording replays in a browser too.
import type { TranslationSpec } from '../../core/contract/adapter.js';
import { createOpencodeTranslator } from './translate.js';

export const opencodeTranslation: TranslationSpec<'opencode'> = { name: 'opencode', createTranslator: createOpencodeTranslator };
