import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAdaptersMd } from '../../scripts/adapters-md.js';
import { builtInAdapters } from '../../src/registry.js';

describe('adapters.md', () => {
  it('is what the adapters\' capability data says (run `npm run docs:adapters` after changing an adapter)', () => {
    expect(readFileSync(new URL('../../adapters.md', import.meta.url), 'utf8')).toBe(renderAdaptersMd());
  });

  it('names the version each column was verified on', () => {
    const text = renderAdaptersMd();
    for (const adapter of Object.values(builtInAdapters)) expect(text).toContain(`## ${adapter.name} (verified on ${adapter.versions.testedMax})`);
  });
});
