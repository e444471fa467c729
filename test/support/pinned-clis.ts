// The suite runs the pinned CLIs from node_modules/.bin (on PATH under npm test and npx). pi 1.x also
// needs Node 22, which the global setup installs apart: this adds it to the options of a pi run.
import type { SharedStartOpts } from '../../src/index.js';
import { pathWithNode22 } from '../../src/testing/pi-env.js';

export function withPinnedRuntime(cli: string, opts: SharedStartOpts): SharedStartOpts {
  if (cli !== 'pi') return opts;
  return { ...opts, extraEnv: { ...opts.extraEnv, PATH: pathWithNode22() } };
}

