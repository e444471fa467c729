import { defineConfig, type Options } from 'tsup';

/** The file beside the bundle that src/core/zod.ts loads zod's runtime from. */
export const ZOD_RUNTIME_FILE = 'zod-runtime.cjs';

/** The options every bundle of the package shares (the bench builds with them too). */
export const bundleOptions = {
  target: 'node20',
  // import.meta.url in the CJS build (the lazy zod loader uses it).
  shims: true,
  define: { __ZOD_RUNTIME__: JSON.stringify(`./${ZOD_RUNTIME_FILE}`) },
} satisfies Options;

/** zod's runtime, only what src/core/zod-runtime.ts names: one CJS file, so it loads synchronously. */
export const zodRuntimeOptions = (srcDir: string, outDir: string): Options => ({
  entry: { 'zod-runtime': `${srcDir}/core/zod-runtime.ts` },
  format: ['cjs'],
  outDir,
  target: 'node20',
  noExternal: ['zod'],
});

export default defineConfig([
  {
    ...bundleOptions,
    // `coderline` plus one subpath per CLI (`coderline/claude`, …) exporting that adapter alone.
    entry: {
      index: 'src/index.ts',
      claude: 'src/adapters/claude/index.ts',
      codex: 'src/adapters/codex/index.ts',
      copilot: 'src/adapters/copilot/index.ts',
      pi: 'src/adapters/pi/index.ts',
      testing: 'src/testing/index.ts',
      cli: 'src/cli/main.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // Both builds run at once: this one's cleaning must spare the other's file.
    clean: [`!${ZOD_RUNTIME_FILE}`],
    sourcemap: true,
    splitting: true,
  },
  zodRuntimeOptions('src', 'dist'),
]);
