// What coderline calls of zod at run time, and nothing more. The package build bundles this file on
// its own, tree-shaken, into dist/zod-runtime.cjs: every entry point of zod itself loads all of its
// locales too, which cost ~5 MB of RSS and ~18 ms on a process's first run (docs/performance.md, fix 14).
export { array, boolean, custom, enum, fromJSONSchema, number, object, record, strictObject, string, toJSONSchema, union, unknown } from 'zod';
