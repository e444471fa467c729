// Records fixtures/<cli>/<version>/live/*.jsonl: live sessions (coder.open()) of the pinned binaries
// against the fake model servers, every line both ways (the scenarios are scripts/compat/live.ts's).
// The shell call is the adapter's probe call.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { builtInAdapters } from '../../src/registry.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import type { ProviderName } from '../../src/events.js';
import { pathWithNode22 } from '../../src/testing/pi-env.js';
import { liveCanaryApplies, liveScenarios, runLiveScenario } from '../compat/live.js';
import { recordLiveMeaning } from './live-meaning.js';

const root = resolve(import.meta.dirname, '../..');

/** Records every live scenario of `cli` (nothing for a CLI without a live mode). */
export async function recordLive(cli: ProviderName): Promise<void> {
  const adapter: AdapterSpec<ProviderName> = builtInAdapters[cli];
  if (!adapter.live) return;
  const wanted = process.env.LIVE_SCENARIOS?.split(',');
  for (const scenario of liveScenarios) {
    if ((wanted && !wanted.includes(scenario.name)) || !liveCanaryApplies(adapter, scenario)) continue;
    const { version, text, observed } = await runLiveScenario(adapter, scenario, cli === 'pi' ? { path: pathWithNode22() } : {});
    if (observed.error !== undefined) throw new Error(`${cli} live/${scenario.name}: ${observed.error}`);
    const dir = join(root, 'fixtures', cli, version ?? 'unknown', 'live');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${scenario.name}.jsonl`), text);
    console.error(`  live/${scenario.name}: ${text.split('\n').length - 2} lines`);
  }
  // Plans, compactions and subagents, where the live protocol shows them (not canaries of the sweep).
  await recordLiveMeaning(adapter);
}
