// Everything a test (or the recorder) needs to run the real `pi` offline against a fake
// chat-completions server: a private agent dir whose models.json declares a custom
// `openai-completions` provider at the server, retry settings short enough for tests, and the
// Node 22 runtime that pi >= 1.x needs (it refuses Node < 22.19).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SharedStartOpts } from '../options.js';

export const PI_FAKE_PROVIDER = 'fake';
/** A model declared with `reasoning: true` (pi sends `reasoning_effort`). */
export const PI_FAKE_MODEL = 'fake-model';
/** A model without reasoning support. */
export const PI_FAKE_PLAIN_MODEL = 'fake-plain';
export const PI_FAKE_API_KEY = 'fake-key';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where `npm ci` in test/runtime/node22 puts the `node` executable of the npm package `node@22`. */
export const NODE22_BIN_DIR = join(repoRoot, 'test', 'runtime', 'node22', 'node_modules', 'node', 'bin');

/** The pi executable of the root devDependencies. */
export const PI_BIN = join(repoRoot, 'node_modules', '.bin', 'pi');

export interface PiRetrySettings {
  /** pi's own (agent-level) retries of retryable errors such as 429 and 5xx. */
  maxRetries: number;
  baseDelayMs: number;
}

export interface PiEnvOptions {
  /** Base URL of the fake server, without `/v1` (FakeServer.url). */
  serverUrl: string;
  /** Default: 1 retry after 50 ms, so "500 forever" ends within a second or two. */
  retry?: PiRetrySettings;
  /** Provider-level request timeout; pi's default is long (minutes). */
  requestTimeoutMs?: number;
  /**
   * settings.json `compaction`: pi compacts before a model call once the context passes the window
   * (`contextWindow`) less `reserveTokens`, and summarizes only what lies before the last `keepRecentTokens`.
   */
  compaction?: { reserveTokens: number; keepRecentTokens: number };
  /** The fake models' context window (default 128 000). */
  contextWindow?: number;
}

export interface PiEnv {
  /** The PI_CODING_AGENT_DIR: models.json, settings.json and (by default) sessions/. */
  agentDir: string;
  /** A HOME that is not the user's, so nothing leaks into or out of ~/.pi. */
  home: string;
  /** Options for run()/createCoder(): provider, model and the environment described above. */
  opts: SharedStartOpts & { extraEnv: Record<string, string> };
  cleanup(): Promise<void>;
}

/** PATH with Node 22 first, so `#!/usr/bin/env node` in pi's bin starts Node 22 (the child only). */
export function pathWithNode22(basePath = process.env.PATH ?? ''): string {
  return basePath ? `${NODE22_BIN_DIR}${delimiter}${basePath}` : NODE22_BIN_DIR;
}

export function assertNode22Installed(): void {
  if (!existsSync(join(NODE22_BIN_DIR, 'node'))) {
    throw new Error(`Node 22 for pi is missing at ${NODE22_BIN_DIR}: run \`npm ci --prefix test/runtime/node22\``);
  }
}

export function piModelsJson(serverUrl: string, contextWindow = 128_000): Record<string, unknown> {
  return {
    providers: {
      [PI_FAKE_PROVIDER]: {
        baseUrl: `${serverUrl}/v1`,
        api: 'openai-completions',
        apiKey: PI_FAKE_API_KEY,
        // The fake server speaks plain chat completions: a `system` message, not `developer`.
        compat: { supportsDeveloperRole: false },
        models: [
          // Takes images, so `images` attachments reach the request (pi leaves them out for a text-only model).
          { id: PI_FAKE_MODEL, reasoning: true, input: ['text', 'image'], contextWindow, maxTokens: 4096 },
          { id: PI_FAKE_PLAIN_MODEL, reasoning: false, contextWindow, maxTokens: 4096 },
        ],
      },
    },
  };
}

export function piSettingsJson(retry: PiRetrySettings, requestTimeoutMs: number, compaction?: PiEnvOptions['compaction']): Record<string, unknown> {
  return {
    ...(compaction ? { compaction: { enabled: true, ...compaction } } : {}),
    retry: {
      enabled: true,
      maxRetries: retry.maxRetries,
      baseDelayMs: retry.baseDelayMs,
      maxAgentDelayMs: Math.max(retry.baseDelayMs * 8, 1000),
      // The OpenAI SDK's own retries would hide errors from pi's retry events.
      provider: { maxRetries: 0, timeoutMs: requestTimeoutMs },
    },
    enableInstallTelemetry: false,
  };
}

/** The pinned pi with Node 22 first on its PATH, pointed at a fake server (see createPiAgent). */
export async function createPiEnv(options: PiEnvOptions): Promise<PiEnv> {
  assertNode22Installed();
  const env = await createPiAgent(options);
  return { ...env, opts: { ...env.opts, executablePath: PI_BIN, extraEnv: { PATH: pathWithNode22(), ...env.opts.extraEnv } } };
}

/**
 * A private agent dir (models.json with a custom openai-completions provider at the server, bounded
 * retries, telemetry off) and HOME, and the options that point the `pi` on PATH at them.
 */
export async function createPiAgent(options: PiEnvOptions): Promise<PiEnv> {
  const root = await mkdtemp(join(tmpdir(), 'coderline-pi-'));
  const agentDir = join(root, 'agent');
  const home = join(root, 'home');
  await mkdir(agentDir, { recursive: true });
  await mkdir(home, { recursive: true });
  const retry = options.retry ?? { maxRetries: 1, baseDelayMs: 50 };
  await writeFile(join(agentDir, 'models.json'), JSON.stringify(piModelsJson(options.serverUrl, options.contextWindow), null, 2));
  await writeFile(
    join(agentDir, 'settings.json'),
    JSON.stringify(piSettingsJson(retry, options.requestTimeoutMs ?? 60_000, options.compaction), null, 2),
  );
  return {
    agentDir,
    home,
    opts: {
      piProvider: PI_FAKE_PROVIDER,
      model: PI_FAKE_MODEL,
      extraEnv: {
        HOME: home,
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: '1',
        PI_TELEMETRY: '0',
      },
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
