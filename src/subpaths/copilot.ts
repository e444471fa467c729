// coderline/copilot: the Copilot CLI adapter alone, for run(copilotAdapter, …) and the other calls that take an adapter.
// Importing the main entry keeps the package's code one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { copilotAdapter } from '../adapters/copilot/index.js';
