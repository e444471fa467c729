// The adapters' event data (src/adapters/<cli>/events.ts, adapters.md's Events table) against what the
// real binaries printed: every recorded fixture of a CLI (one-shot and live/, from `npm run record`
// and the compatibility sweep) is replayed through its translator. A claimed event must show in a
// fixture of the version it is claimed since; an event said to be absent, or an adapter without the
// table (it claims none), must show in none.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MeaningEventType } from '../../src/core/contract/adapter.js';
import type { CoderStreamEvent, ProviderName } from '../../src/events.js';
import { builtInAdapters } from '../../src/registry.js';
import { parseRecording } from '../../src/replay/live-recording.js';
import { replay, replayLive } from '../../src/replay/replay.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const eventTypes: MeaningEventType[] = ['plan', 'subagent', 'compaction'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

/** The events of one recorded file: a live recording's turns, or a one-shot run with its options. */
function eventsOf(cli: ProviderName, path: string): CoderStreamEvent[] {
  const text = readFileSync(path, 'utf8');
  if (path.split('/').includes('live')) return replayLive(cli, parseRecording(text)).flat();
  const metaFile = path.replace(/\.jsonl$/, '.meta.json');
  const opts = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, 'utf8')) as { opts?: object }).opts : undefined;
  return replay(cli, text.split('\n'), { opts: opts ?? {} });
}

/** Which of the event types the fixtures of `version` (all versions when undefined) show. */
function shownBy(cli: ProviderName, version?: string): Set<string> {
  const root = join(fixtures, cli);
  const versions = version === undefined ? readdirSync(root) : [version];
  const seen = new Set<string>();
  for (const each of versions) {
    if (!existsSync(join(root, each))) continue;
    for (const path of files(join(root, each))) for (const event of eventsOf(cli, path)) seen.add(event.type);
  }
  return seen;
}

describe.each(Object.keys(builtInAdapters) as ProviderName[])('%s', (cli) => {
  const table = builtInAdapters[cli].events;
  const everywhere = shownBy(cli);

  it('says, for each of plan, subagent and compaction, whether it is emitted (or has no table)', () => {
    if (table) expect(Object.keys(table).sort()).toEqual([...eventTypes].sort());
  });

  it.each(eventTypes)('%s: the data agrees with the recordings', (type) => {
    const support = table?.[type];
    if (!support || 'none' in support) {
      expect(everywhere.has(type)).toBe(false);
      return;
    }
    expect(existsSync(join(fixtures, cli, support.since)), `fixtures/${cli}/${support.since}`).toBe(true);
    expect(shownBy(cli, support.since).has(type)).toBe(true);
  });
});
