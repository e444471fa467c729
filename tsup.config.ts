import { defineConfig } from 'tsup';

export default defineConfig({
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
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
  // import.meta.url in the CJS build (the lazy zod loader uses it).
  shims: true,
});
