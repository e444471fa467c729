// Runs once before the suite: prepares what the real-CLI tests need (see each setup's comment).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copilotBinary, copilotTestHome } from '../../src/testing/copilot-env.js';
import { nestedNpmEnv } from '../../scripts/npm-env.js';
import { REDIS_PORT_VARIABLE, startRedis } from './redis.js';

const root = join(import.meta.dirname, '..', '..');

/**
 * Other Nodes than the suite's, each an npm package `node@…` in test/runtime/<name> with its own
 * lockfile (never in the root tree: its `node` bin would move every npm script to that Node).
 * node22: pi 1.x needs Node >= 22.19; the pi tests put its bin dir first on pi's PATH.
 * node-floor: the oldest Node `engines` admits, which the built package is run on (test/package).
 */
function installRuntime(name: 'node22' | 'node-floor'): void {
  const dir = join(root, 'test', 'runtime', name);
  if (existsSync(join(dir, 'node_modules', 'node', 'bin', 'node'))) return;
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: nestedNpmEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * One private temp folder per run of the suite, for the tests and every CLI they start (workers
 * inherit TMPDIR): two checkouts tested at once never share a temp path, and what a CLI leaves
 * behind (a killed Codex sandbox's mount targets, say) cannot change how another CLI sees its
 * working directory. Removed when the suite ends.
 */
function privateTempFolder(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'coderline-suite-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}

/**
 * The first copilot run in a HOME unpacks ~235 MB of assets. Done here, once per checkout and before
 * any worker starts, so no two test files unpack into the same HOME at the same moment.
 */
function unpackCopilot(): void {
  execFileSync(copilotBinary, ['--version'], { env: { ...process.env, HOME: copilotTestHome(), COPILOT_AUTO_UPDATE: 'false' }, stdio: 'ignore' });
}

export default async function setup(): Promise<() => Promise<void>> {
  installRuntime('node22');
  installRuntime('node-floor');
  unpackCopilot();
  const removeTemp = privateTempFolder();
  // One real Redis for the queue tests (each test uses queues of its own names).
  const redis = await startRedis();
  process.env[REDIS_PORT_VARIABLE] = String(redis.port);
  return async () => {
    await redis.stop();
    removeTemp();
  };
}
