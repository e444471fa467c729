// `coderline/testing`: fake model servers for testing agent jobs offline. Start one with a script,
// get the options that point a CLI at it, run, then assert on the answers and on what the CLI sent.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionsError } from '../errors.js';
import type { ProviderName } from '../events.js';
import type { SharedStartOpts } from '../options.js';
import { claudeOptsForFake, startFakeAnthropic } from './anthropic.js';
import { copilotTestEnv, copilotTokenVars } from './copilot-env.js';
import { startFakeChat } from './openai-chat.js';
import { codexFakeOpts, startFakeResponses } from './openai-responses.js';
import { createPiAgent } from './pi-env.js';
import type { RecordedRequest, Script } from './script.js';
import type { FakeServer } from './server.js';

export type FakeApi = 'anthropic' | 'openai-responses' | 'openai-chat';

/** The wire API each CLI speaks to its model. */
export const fakeApiOf: { readonly [P in ProviderName]: FakeApi } = {
  claude: 'anthropic',
  codex: 'openai-responses',
  copilot: 'openai-chat',
  pi: 'openai-chat',
};

export interface FakeModelOptions {
  api: FakeApi;
  /** One step per model request, in order (the last repeats), or a function of the request. */
  script: Script;
}

export interface FakeEnvOptions {
  /** How often the CLI may retry a failed model call on its own (default: 1, or 0 where the CLI allows it). */
  retries?: number;
}

export interface FakeModel {
  /** Base URL on 127.0.0.1, without a trailing slash. */
  url: string;
  /** The model calls received, in order: body (parsed JSON), headers, path. */
  requests: RecordedRequest[];
  /** Every HTTP request received, model calls or not. */
  allRequests: RecordedRequest[];
  /**
   * Start options that point `cli` (the one on PATH, or set `executablePath`) at this server: the
   * environment, config files in private temp dirs, and the CLI's telemetry and update checks off.
   */
  env(cli: ProviderName, options?: FakeEnvOptions): Promise<SharedStartOpts>;
  /** Stops the server (also hung requests) and removes the temp dirs `env()` made. */
  close(): Promise<void>;
}

const starters: Record<FakeApi, (script: Script) => Promise<FakeServer>> = {
  anthropic: startFakeAnthropic,
  'openai-responses': startFakeResponses,
  'openai-chat': startFakeChat,
};

async function optionsFor(cli: ProviderName, server: FakeServer, dir: string, options: FakeEnvOptions): Promise<{ opts: SharedStartOpts; cleanup?: () => Promise<void> }> {
  switch (cli) {
    case 'claude': {
      const configDir = join(dir, 'config');
      await mkdir(configDir);
      return { opts: claudeOptsForFake(server, { home: dir, configDir, maxRetries: options.retries ?? 1 }) };
    }
    case 'codex':
      return { opts: codexFakeOpts(server, { home: dir, retries: options.retries ?? 0 }) };
    case 'copilot':
      return { opts: { extraEnv: copilotTestEnv(server.url, { copilotHome: dir }), unsetEnv: copilotTokenVars } };
    case 'pi': {
      const agent = await createPiAgent({ serverUrl: server.url, retry: { maxRetries: options.retries ?? 1, baseDelayMs: 50 } });
      return { opts: agent.opts, cleanup: agent.cleanup };
    }
  }
}

/** Starts a fake model server on 127.0.0.1 (random port) that answers by `script`. */
export async function startFakeModel(options: FakeModelOptions): Promise<FakeModel> {
  const start = starters[options.api];
  if (!start) throw new InvalidOptionsError([`unknown fake api "${String(options.api)}"; choose one of: ${Object.keys(starters).join(', ')}`]);
  const server = await start(options.script);
  const cleanups: Array<() => Promise<void>> = [];
  return {
    url: server.url,
    requests: server.modelRequests,
    allRequests: server.requests,
    env: async (cli, envOptions = {}) => {
      if (fakeApiOf[cli] !== options.api) {
        throw new InvalidOptionsError([`${cli} speaks ${fakeApiOf[cli]}, but this fake model serves ${options.api}`]);
      }
      const dir = await mkdtemp(join(tmpdir(), `coderline-fake-${cli}-`));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const { opts, cleanup } = await optionsFor(cli, server, dir, envOptions);
      if (cleanup) cleanups.push(cleanup);
      return opts;
    },
    close: async () => {
      await server.close();
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    },
  };
}

/**
 * The first tool the request offers whose name matches: lets a script call "the shell tool" without
 * knowing what this CLI version calls it.
 */
export function offeredTool(request: RecordedRequest, pattern: RegExp): string {
  const tools = ((request.body as { tools?: unknown[] } | undefined)?.tools ?? []) as Array<Record<string, unknown>>;
  const names = tools.map((tool) => String((tool.function as { name?: unknown } | undefined)?.name ?? tool.name ?? ''));
  const found = names.find((name) => pattern.test(name));
  if (!found) throw new Error(`no offered tool matches ${pattern}; offered: ${names.join(', ')}`);
  return found;
}

export type { ModelReply, RecordedRequest, Script, ScriptedToolCall, ScriptedUsage, ScriptStep } from './script.js';
