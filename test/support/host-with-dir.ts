// A host program for the watchdog tests: it has the watchdog remove a directory, with no CLI spawned
// (no process group to watch), and waits to be killed.
//   host-with-dir.ts <dir>
import { watchDir } from '../../src/core/process/watchdog.js';

const [dir] = process.argv.slice(2) as [string];
watchDir(dir);
process.stdout.write('{"watching":true}\n');
setInterval(() => {}, 1 << 30);
