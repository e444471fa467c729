// coderline/opencode: the OpenCode adapter alone, for run(opencodeAdapter, …) and the other calls that take an adapter.
// Importing the main entry keeps the package's code one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { opencodeAdapter } from '../adapters/opencode/index.js';
