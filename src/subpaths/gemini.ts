// coderline/gemini: the Gemini CLI adapter alone, for run(geminiAdapter, …) and the other calls that take an adapter.
// Importing the main entry keeps the package's code one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { geminiAdapter } from '../adapters/gemini/index.js';
