import { defineConfig, type Options } from 'tsup';

/** The options every bundle of the package shares (the bench builds with them too). */
export const bundleOptions = {
  target: 'node20',
  // import.meta.url in the CJS build (coderline/testing finds the installed CLIs by it).
  shims: true,
} satisfies Options;

export default defineConfig({
  ...bundleOptions,
  // `coderline` plus one subpath per CLI (`coderline/claude`, …) exporting that adapter alone.
  // Every other entry imports the main one, so all the code `coderline` loads is reached by the same
  // entries and lands in one chunk: 20-odd chunks cost a cold import ~27 ms of CPU, and their source
  // texts, small enough for the young generation, a scavenge in the first run (docs/performance.md).
  entry: {
    index: 'src/index.ts',
    claude: 'src/subpaths/claude.ts',
    codex: 'src/subpaths/codex.ts',
    copilot: 'src/subpaths/copilot.ts',
    pi: 'src/subpaths/pi.ts',
    gemini: 'src/subpaths/gemini.ts',
    opencode: 'src/subpaths/opencode.ts',
    testing: 'src/testing/index.ts',
    // BullMQ and ioredis load only through coderline/queue; @opentelemetry/api only through coderline/otel.
    queue: 'src/queue/index.ts',
    otel: 'src/otel/index.ts',
    // The AI SDK language model; @ai-sdk/provider gives it types only.
    'ai-sdk': 'src/ai-sdk/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  // An optional peer (coderline/ai-sdk's types): the app's own copy, never one bundled in.
  external: ['@ai-sdk/provider'],
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
});
