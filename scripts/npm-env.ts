// The environment for an npm started from inside `npm run` or `npm test`: without the npm_* variables
// (npm_config_* among them), which would point it at the repository's prefix instead of its own folder.
export function nestedNpmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !/^npm_/i.test(name)) env[name] = value;
  return env;
}
