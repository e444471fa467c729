// Google's Gemini CLI (`@google/gemini-cli`): `gemini --output-format stream-json`, prompt on stdin.
// Options → argv.ts and settings.ts (the run's own settings file, home.ts); what is supported →
// capabilities.ts; JSONL records → translate.ts; tool facts → tools.ts; sessions → store.ts.
import type { AdapterSpec } from '../../core/contract/adapter.js';
import { buildGeminiInvocation, validateGeminiOptions } from './argv.js';
import { geminiCapabilities, geminiInsteadHints, geminiOwnedFlags } from './capabilities.js';
import { geminiDocs } from './docs.js';
import { explainGeminiExit } from './exit.js';
import { geminiLive } from './live.js';
import { geminiSessionStore } from './store.js';
import { createGeminiTranslator } from './translate.js';
import { geminiVersions } from './versions.js';

export const geminiAdapter: AdapterSpec<'gemini'> = {
  name: 'gemini',
  binary: 'gemini',
  installHint: 'Install it with `npm install -g @google/gemini-cli` (or pass executablePath).',
  npmPackage: '@google/gemini-cli',
  versions: geminiVersions,
  // `gemini --version` prints the bare version.
  parseVersion: (output) => /^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\s*$/m.exec(output)?.[1],
  capabilities: geminiCapabilities,
  ownedFlags: geminiOwnedFlags,
  insteadHints: geminiInsteadHints,
  validate: validateGeminiOptions,
  // `result.stats` counts this process's model calls only.
  usageIsCumulative: false,
  docs: geminiDocs,
  auth: {
    variables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_GENAI_USE_GCA'],
    storedLogin: "none: each run's GEMINI_CLI_HOME is its own (a `gemini` login in ~/.gemini is not read); use the variables",
  },
  environment: {
    minimal: ['GOOGLE_GEMINI_BASE_URL', 'GOOGLE_VERTEX_BASE_URL', 'GEMINI_API_KEY_AUTH_MECHANISM', 'GOOGLE_GENAI_API_VERSION', 'GEMINI_MODEL', 'GEMINI_CLI_CUSTOM_HEADERS', 'NO_COLOR'],
  },
  // Headless, the shell tool is offered only when a rule allows it.
  probe: {
    shellCall: (command) => ({ name: 'run_shell_command', input: { command, description: 'coderline probe' } }),
    shellEventName: 'run_shell_command',
    failedRunExit: 'non-zero',
    // stream-json has no exit code: a failing command is `status: "success"` with its output (0.52.0–0.61.0).
    failedCommandIsError: false,
    toolOpts: { permissionPolicy: { allow: ['run_shell_command'] } },
  },
  canFork: false,
  buildInvocation: buildGeminiInvocation,
  explainExit: explainGeminiExit,
  createTranslator: createGeminiTranslator,
  sessionStore: geminiSessionStore,
  live: geminiLive,
};
