// zod is loaded on the first validation, not on import, synchronously so option errors are still
// thrown where they happen. The built package loads its tree-shaken copy (zod-runtime.ts); a source
// checkout (tests, scripts) loads zod itself, which has all of it.
import { createRequire } from 'node:module';
import type * as ZodRuntime from './zod-runtime.js';

/** Set by the package build (tsup.config.ts) to the copy it writes beside the bundle. */
declare const __ZOD_RUNTIME__: string | undefined;

let loaded: typeof ZodRuntime | undefined;

export function loadZod(): typeof ZodRuntime {
  loaded ??= createRequire(import.meta.url)(typeof __ZOD_RUNTIME__ === 'string' ? __ZOD_RUNTIME__ : 'zod') as typeof ZodRuntime;
  return loaded;
}
