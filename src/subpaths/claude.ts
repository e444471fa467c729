// coderline/claude: the Claude Code adapter alone, for run(claudeAdapter, …) and the other calls that take an adapter.
// Importing the main entry keeps the package's code one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { claudeAdapter } from '../adapters/claude/index.js';
