// Runs once before the suite: prepares what the real-CLI tests need (see each setup's comment).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/**
 * pi 1.x needs Node >= 22.19, but the suite runs on the project's Node (20+). The npm package
 * `node@22` lives in test/runtime/node22 with its own lockfile (never in the root tree: its `node`
 * bin would move every npm script to Node 22); the pi tests put its bin dir first on pi's PATH.
 */
function installNode22ForPi(): void {
  const dir = join(root, 'test', 'runtime', 'node22');
  if (existsSync(join(dir, 'node_modules', 'node', 'bin', 'node'))) return;
  // Under `npm test`, npm_config_* variables (e.g. the root's local prefix) would redirect this npm.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

export default async function setup(): Promise<void> {
  installNode22ForPi();
}
