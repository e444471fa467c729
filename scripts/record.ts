// `npm run record [cli ...]` re-records fixtures/<cli>/<version>/ from the real binaries against the
// fake model servers: each CLI's one-shot scenarios (scripts/record/<cli>.ts), then its live sessions
// (scripts/record/live.ts, into live/), then its 429-with-retry-after runs (scripts/record/retry-after.ts).
// `npm run record -- --live [cli ...]` records the live ones only, `--retry-after [cli ...]` the 429 ones only.
import { recordLive } from './record/live.js';
import { recordRetryAfter } from './record/retry-after.js';

const all = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'] as const;
const args = process.argv.slice(2);
const liveOnly = args.includes('--live');
const retryAfterOnly = args.includes('--retry-after');
const named = args.filter((arg) => arg !== '--live' && arg !== '--retry-after');
const wanted = named.length ? named : [...all];

for (const cli of wanted) {
  if (!(all as readonly string[]).includes(cli)) {
    console.error(`unknown CLI "${cli}"; choose from ${all.join(', ')}`);
    process.exit(2);
  }
  if (!liveOnly && !retryAfterOnly) {
    const module = (await import(`./record/${cli}.ts`)) as { record(): Promise<void> };
    console.error(`recording ${cli} …`);
    await module.record();
  }
  if (!retryAfterOnly) {
    console.error(`recording ${cli} live sessions …`);
    await recordLive(cli as (typeof all)[number]);
  }
  if (!liveOnly) {
    console.error(`recording ${cli} 429s with retry-after …`);
    await recordRetryAfter(cli as (typeof all)[number]);
  }
}
