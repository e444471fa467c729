import { defineConfig } from 'tsup';

// `coderline/replay` on its own, after the main build (`npm run build` runs both): one file per format
// with everything it needs inside, and no chunk shared with `coderline`. Built with the other entries,
// the translators it shares with them would move into a chunk of their own, one more module for every
// cold import of `coderline` (tsup.config.ts; test/package checks the main entry's chunks). It imports
// no Node built-in, so a browser or an edge worker can load it as it is (test/replay/browser.test.ts).
export default defineConfig({
  entry: { replay: 'src/replay/index.ts' },
  format: ['esm', 'cjs'],
  platform: 'neutral',
  target: 'es2022',
  dts: true,
  // The main build cleaned dist/ already; this one only adds to it.
  clean: false,
  sourcemap: true,
  splitting: false,
});
