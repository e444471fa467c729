// The recorded fixtures the replay tests run through coderline/replay: every one-shot recording and
// every live recording of each CLI's pinned version (fixtures/<cli>/<version>/…), with the options and
// session its meta file says the run had. Each case replays with a counter clock, so the stamps are
// checked too: `replayCase` here for Node, page.js the same calls in the browser.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OneShotOpts } from '../../src/options.js';
import type * as Replay from '../../src/replay/index.js';

export const pinned = { claude: '2.1.332', codex: '0.171.0', copilot: '1.0.102', pi: '1.6.0', opencode: '1.18.33' } as const;
type Cli = keyof typeof pinned;

export type ReplayCase =
  | { name: string; cli: Cli; live: false; lines: string[]; opts: OneShotOpts; session: Replay.SessionTarget }
  | { name: string; cli: Cli; live: true; text: string };

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const jsonlIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.jsonl')).sort() : []);

export function replayCases(): ReplayCase[] {
  return (Object.entries(pinned) as Array<[Cli, string]>).flatMap(([cli, version]) => {
    const dir = join(fixtures, cli, version);
    // A run that printed nothing (a resume of a missing id: the CLI says why on stderr only) has nothing to replay.
    const printed = jsonlIn(dir).filter((file) => readFileSync(join(dir, file), 'utf8').trim() !== '');
    const oneShot = printed.map((file): ReplayCase => {
      const metaFile = join(dir, file.replace(/\.jsonl$/, '.meta.json'));
      // pi's fixtures have no meta file: their runs were new sessions with no options a translator reads.
      const meta = (existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) : {}) as { opts?: OneShotOpts; session?: Replay.SessionTarget };
      const lines = readFileSync(join(dir, file), 'utf8').split('\n');
      return { name: `${cli}/${version}/${file}`, cli, live: false, lines, opts: meta.opts ?? {}, session: meta.session ?? { kind: 'new' } };
    });
    const live = jsonlIn(join(dir, 'live')).map((file): ReplayCase => ({ name: `${cli}/${version}/live/${file}`, cli, live: true, text: readFileSync(join(dir, 'live', file), 'utf8') }));
    return [...oneShot, ...live];
  });
}

/** One case through the entry's public API, ts from a counter (page.js makes the same calls). */
export function replayCase(replay: typeof Replay, testCase: ReplayCase): unknown {
  let tick = 0;
  const clock = () => tick++;
  if (testCase.live) return replay.replayLive(testCase.cli, replay.parseRecording(testCase.text), { clock });
  return replay.replay(testCase.cli, testCase.lines, { opts: testCase.opts, session: testCase.session, clock });
}
