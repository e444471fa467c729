// Options that point the real `copilot` binary at a fake chat-completions server, offline.
// Copilot's bring-your-own-provider mode needs no GitHub token: COPILOT_PROVIDER_BASE_URL switches it on
// and COPILOT_OFFLINE=true turns off auth, telemetry, MCP and update traffic.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pinned devDependency binary. */
export const copilotBinary = join(repoRoot, 'node_modules', '.bin', 'copilot');

export const fakeCopilotModel = 'fake-model';

/**
 * One HOME for every test run and recording of this checkout: the first run unpacks ~235 MB of assets
 * into `$HOME/.cache/copilot`, which must happen once, not once per run. It lives beside the pinned
 * binary (node_modules/.cache), so two checkouts never unpack into the same folder at once, and it
 * goes with the checkout.
 */
export function copilotTestHome(): string {
  const home = join(repoRoot, 'node_modules', '.cache', 'coderline-copilot-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

/** A fresh state dir (sessions, logs, config) for one coder: runs of one coder share it so resume works. */
export function freshCopilotHome(): string {
  return mkdtempSync(join(tmpdir(), 'coderline-copilot-state-'));
}

export interface CopilotTestEnvOptions {
  /** Reuse this COPILOT_HOME (e.g. to resume a session from another coder); fresh by default. */
  copilotHome?: string;
  /** Model id announced to the CLI (default `fake-model`). */
  model?: string;
}

/** The environment that sends the CLI to `serverUrl` (the fake server's base URL, without `/v1`). */
export function copilotTestEnv(serverUrl: string, options: CopilotTestEnvOptions = {}): Record<string, string> {
  return {
    HOME: copilotTestHome(),
    COPILOT_HOME: options.copilotHome ?? freshCopilotHome(),
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${serverUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'fake-key',
    COPILOT_MODEL: options.model ?? fakeCopilotModel,
    NO_COLOR: '1',
  };
}

/** Tokens that would make the CLI try GitHub instead of the fake provider. */
export const copilotTokenVars = ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'COPILOT_ALLOW_ALL'];
