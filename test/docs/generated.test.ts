// The generated docs must match the code they are generated from: run `npm run docs` after a change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAdaptersMd } from '../../scripts/adapters-md.js';
import { renderApiMd } from '../../scripts/api-md.js';
import { renderCompatMd, renderVersionsTs } from '../../scripts/compat/docs.js';
import { readResults } from '../../scripts/compat/results.js';
import { renderEventsMd } from '../../scripts/events-md.js';
import type { ProviderName } from '../../src/events.js';
import * as publicApi from '../../src/index.js';
import * as replayApi from '../../src/replay/index.js';
import * as aiSdkApi from '../../src/ai-sdk/index.js';
import { builtInAdapters } from '../../src/registry.js';

const committed = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('generated docs', () => {
  it.each([
    ['adapters.md', renderAdaptersMd],
    ['docs/api.md', renderApiMd],
    ['docs/events.md', renderEventsMd],
  ])('%s is what the code says', (path, render) => {
    expect(committed(path)).toBe(render());
  });

  it('docs/compat.md and each adapter\'s versions.ts are what compat/results.json says', () => {
    const results = readResults();
    expect(committed('docs/compat.md')).toBe(renderCompatMd(results));
    for (const cli of Object.keys(builtInAdapters) as ProviderName[]) expect(committed(`src/adapters/${cli}/versions.ts`)).toBe(renderVersionsTs(cli, results));
  });

  it('adapters.md names the version each column was verified on', () => {
    for (const adapter of Object.values(builtInAdapters)) expect(renderAdaptersMd()).toContain(`## ${adapter.name} (verified on ${adapter.versions.testedMax})`);
  });

  it('docs/api.md documents every public export', () => {
    const api = renderApiMd();
    expect(Object.keys(publicApi).filter((name) => !api.includes(`\`${name}`))).toEqual([]);
  });

  it('docs/api.md documents every export of coderline/replay in its section', () => {
    const section = renderApiMd().split('## `coderline/replay`')[1] ?? '';
    expect(Object.keys(replayApi).filter((name) => !section.includes(`\`${name}`))).toEqual([]);
  });

  it('docs/api.md documents every export of coderline/ai-sdk in its section', () => {
    const section = renderApiMd().split('## `coderline/ai-sdk`')[1] ?? '';
    expect(Object.keys(aiSdkApi).filter((name) => !section.includes(`\`${name}`))).toEqual([]);
  });

  it('docs/events.md shows, for every CLI, the records behind init, message, tool_use, tool_result and done', () => {
    const events = renderEventsMd();
    for (const type of ['init', 'message', 'tool_use', 'tool_result', 'done']) {
      const section = events.slice(events.indexOf(`## \`${type}\``)).split('\n## ')[0]!;
      for (const cli of Object.keys(builtInAdapters)) expect(section).not.toMatch(new RegExp(`\\| ${cli} \\| — \\|`));
    }
  });
});
