// Where coderline runs CLIs: where it can find a CLI's process group and the tree below it and stop
// them (POSIX process groups and signals, and a process table from /proc or `ps`). Windows has
// neither, so it is refused before anything starts rather than left to kill nothing on abort.
import { PlatformNotSupportedError } from '../../errors.js';

/** What package.json `os` lists too (a test keeps the two the same). */
export const SUPPORTED_PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'darwin'];

export function assertSupportedPlatform(): void {
  // Read at each call, not at import, so a test can stand in another platform.
  if (!SUPPORTED_PLATFORMS.includes(process.platform)) throw new PlatformNotSupportedError(process.platform, SUPPORTED_PLATFORMS);
}
