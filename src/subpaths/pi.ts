// coderline/pi: the Pi adapter alone, for run(piAdapter, …) and the other calls that take an adapter.
// Importing the main entry keeps the package's code one chunk shared by every entry (tsup.config.ts).
import '../index.js';
export { piAdapter } from '../adapters/pi/index.js';
