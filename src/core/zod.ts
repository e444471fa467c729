// zod costs about 40 ms to import, more than the rest of the package: it is loaded on the first
// validation instead, synchronously, so option errors can still be thrown where they happen.
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

let loaded: typeof Zod | undefined;

export function loadZod(): typeof Zod.z {
  loaded ??= createRequire(import.meta.url)('zod') as typeof Zod;
  return loaded.z;
}
