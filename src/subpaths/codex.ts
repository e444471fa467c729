// coderline/codex: the Codex adapter alone, for run(codexAdapter, …) and the other calls that take an adapter.
// Importing the main entry keeps the package's code one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { codexAdapter } from '../adapters/codex/index.js';
