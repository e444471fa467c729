// Options that point the real `opencode` binary at a fake chat-completions server, offline: a private
// config file (OPENCODE_CONFIG) with an OpenAI-compatible provider at the server, private XDG dirs
// and HOME, and a dead npm registry on loopback for the plugin install OpenCode starts at every run.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SharedStartOpts } from '../options.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The pinned devDependency binary (the registry package's link to its platform binary). */
export const OPENCODE_BIN = join(repoRoot, 'node_modules', '.bin', 'opencode');

export const OPENCODE_FAKE_PROVIDER = 'fake';
/** The config's default model: no reasoning. */
export const OPENCODE_FAKE_MODEL = `${OPENCODE_FAKE_PROVIDER}/fake-model`;
/** A model declared with `reasoning: true` (OpenCode sends `reasoning_effort` for a variant). */
export const OPENCODE_FAKE_REASONING_MODEL = `${OPENCODE_FAKE_PROVIDER}/fake-reasoning`;

export interface OpencodeFakeOptions {
  /** Base URL of the fake server, without `/v1` (FakeServer.url). */
  serverUrl: string;
  /** A private dir for this env's files. */
  dir: string;
  /** `provider.options.timeout`: OpenCode's own bound on a model call (none by default). */
  requestTimeoutMs?: number | undefined;
  /** Leave the XDG dirs to the adapter (strict isolation gives each coder its own). */
  strict?: boolean;
  /** The models' limit.context (default 128 000): usage near it makes OpenCode compact. */
  contextWindow?: number | undefined;
}

export function opencodeFakeConfig(serverUrl: string, requestTimeoutMs?: number, contextWindow = 128_000): Record<string, unknown> {
  const limit = { context: contextWindow, output: 4096 };
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: OPENCODE_FAKE_MODEL,
    // The title of a new session is a second, concurrent model call: it would take a scripted step.
    agent: { title: { disable: true } },
    provider: {
      [OPENCODE_FAKE_PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${serverUrl}/v1`, apiKey: 'fake-key', ...(requestTimeoutMs === undefined ? {} : { timeout: requestTimeoutMs }) },
        models: {
          'fake-model': { name: 'Fake Model', attachment: true, modalities: { input: ['text', 'image'], output: ['text'] }, limit },
          'fake-reasoning': { name: 'Fake Reasoning', reasoning: true, limit },
        },
      },
    },
  };
}

/** Writes the config and makes the dirs; the options carry them in extraEnv. */
export async function opencodeFakeOpts(options: OpencodeFakeOptions): Promise<SharedStartOpts & { extraEnv: Record<string, string> }> {
  const { dir } = options;
  const configFile = join(dir, 'opencode.json');
  const names = options.strict ? ['home'] : ['home', 'config', 'data', 'cache', 'state'];
  await Promise.all(names.map((name) => mkdir(join(dir, name), { recursive: true })));
  await writeFile(configFile, JSON.stringify(opencodeFakeConfig(options.serverUrl, options.requestTimeoutMs, options.contextWindow), null, 2));
  const xdg: Record<string, string> = options.strict
    ? {}
    : { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache'), XDG_STATE_HOME: join(dir, 'state') };
  return {
    extraEnv: {
      HOME: join(dir, 'home'),
      ...xdg,
      OPENCODE_CONFIG: configFile,
      // Refused at once on loopback: OpenCode logs "background dependency install failed" and runs on.
      npm_config_registry: 'http://127.0.0.1:9/',
    },
  };
}
