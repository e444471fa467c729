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
  entry: {
    index: 'src/index.ts',
    claude: 'src/adapters/claude/index.ts',
    codex: 'src/adapters/codex/index.ts',
    copilot: 'src/adapters/copilot/index.ts',
    pi: 'src/adapters/pi/index.ts',
    testing: 'src/testing/index.ts',
    // BullMQ and ioredis load only through coderline/queue; @opentelemetry/api only through coderline/otel.
    queue: 'src/queue/index.ts',
    otel: 'src/otel/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
});
