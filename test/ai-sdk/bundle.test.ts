// An app that does not import coderline/ai-sdk pays nothing for it: the main entry's bundle reaches no
// file of it and no AI SDK package; and the subpath itself loads nothing of @ai-sdk/provider at run
// time (types only), so the optional peer is needed only by a TypeScript app that uses the subpath.
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The entry bundled for Node, its packages left as imports: which files it reaches, which packages it loads. */
async function reach(entry: string): Promise<{ inputs: string[]; packages: string[] }> {
  const bundle = await build({ entryPoints: [join(root, entry)], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' });
  const output = Object.values(bundle.metafile.outputs)[0]!;
  return { inputs: Object.keys(bundle.metafile.inputs), packages: output.imports.map((imported) => imported.path) };
}

describe('coderline/ai-sdk costs nothing to an app that does not import it', () => {
  it('the main entry reaches no file of src/ai-sdk and loads no AI SDK package', async () => {
    const main = await reach('src/index.ts');
    expect(main.inputs.some((input) => input.endsWith('src/index.ts'))).toBe(true);
    expect(main.inputs.filter((input) => input.includes('src/ai-sdk/'))).toEqual([]);
    expect(main.packages.filter((name) => /^(ai|@ai-sdk\/)/.test(name))).toEqual([]);
  });

  it('the subpath loads no AI SDK package at run time', async () => {
    const subpath = await reach('src/ai-sdk/index.ts');
    expect(subpath.inputs.some((input) => input.endsWith('src/ai-sdk/language-model.ts'))).toBe(true);
    expect(subpath.packages.filter((name) => /^(ai|@ai-sdk\/)/.test(name))).toEqual([]);
  });
});
