// What a job may set is the worker's decision, not the job's: whoever can write to Redis can write a
// job, so by default nothing in one chooses what runs, with which environment, or where. A refused
// option is an issue naming it; the job resolves invalid_options and its CLI never starts.
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { JobData } from './protocol.js';

/**
 * Options a job may not set at all unless the worker allows them by name (createWorker({ allowOptions })).
 * The CLIs' config channels among them: a Codex `-c` key or a Gemini settings key (`hooks`, a tool
 * discovery command) can name a command the CLI runs on the worker.
 */
const workerOnlyOptions = ['executablePath', 'extraArgs', 'extraEnv', 'unsetEnv', 'inheritEnv', 'codexConfig', 'geminiSettings', 'copilotAdditionalMcpConfig', 'codexDangerouslyBypassApprovalsAndSandbox'] as const;

/** Values a job may not give an option (a bypass of the permission gate or the sandbox, isolation off) unless it is allowed by name. */
const refusedValues: Readonly<Record<string, { values: readonly unknown[]; why: string }>> = {
  permissionMode: { values: ['bypassPermissions', 'auto'], why: 'skips the permission gate' },
  permissionPolicy: { values: ['bypass'], why: 'skips the permission gate' },
  codexSandbox: { values: ['danger-full-access'], why: 'switches the sandbox off' },
  copilotMode: { values: ['autopilot'], why: 'allows every tool without asking' },
  isolation: { values: ['none'], why: "turns the worker's isolation off" },
};

/** Options that are paths: only inside the worker's workspaceRoot (relative ones from the working directory). */
const pathOptions = ['addDirs', 'files', 'images', 'codexImages', 'piSessionDir'] as const;

export type RefusableOption = (typeof workerOnlyOptions)[number] | keyof typeof refusedValues | 'workingDirectory' | (typeof pathOptions)[number];

export interface JobPolicy {
  /** Options lifted from the refusals by name. */
  allowOptions: ReadonlySet<string>;
  /** Where a job's working directory and paths may be; none: a job may set no path at all. */
  workspaceRoot: string | undefined;
  /** Where a job's session.dir may be; none: a job may name no session dir. */
  sessionRoot: string | undefined;
}

/** The path as the file system resolves it: the real path of its longest existing prefix, then the rest. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPathOf(parent), path.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
  }
}

/** Whether `path` (absolute) is `root` or inside it, after links. */
async function isInside(root: string, path: string): Promise<boolean> {
  const [realRoot, real] = await Promise.all([realPathOf(root), realPathOf(path)]);
  const rel = relative(realRoot, real);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

const pathsOf = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/** The working directory a job runs in: its own inside the root, else the root; undefined when it has neither. */
export function workingDirectoryOf(options: Record<string, unknown>, policy: JobPolicy): string | undefined {
  const own = typeof options.workingDirectory === 'string' ? options.workingDirectory : undefined;
  if (policy.workspaceRoot === undefined) return own;
  return own === undefined ? policy.workspaceRoot : resolve(policy.workspaceRoot, own);
}

async function pathIssues(data: JobData, policy: JobPolicy): Promise<string[]> {
  const { options } = data;
  const issues: string[] = [];
  const cwd = workingDirectoryOf(options, policy);
  const checked = [
    ...(options.workingDirectory !== undefined && !policy.allowOptions.has('workingDirectory') ? [{ key: 'workingDirectory', path: cwd! }] : []),
    ...pathOptions.filter((key) => !policy.allowOptions.has(key)).flatMap((key) => pathsOf(options[key]).map((path) => ({ key, path: resolve(cwd ?? '/', path) }))),
  ];
  for (const { key, path } of checked) {
    if (policy.workspaceRoot === undefined) issues.push(`${key}: this worker names no workspaceRoot, so a job may not set paths (createWorker({ workspaceRoot }))`);
    else if (!(await isInside(policy.workspaceRoot, path))) issues.push(`${key}: ${path} is outside the worker's workspaceRoot ${policy.workspaceRoot}`);
  }
  const dir = data.session?.dir;
  if (dir !== undefined) {
    if (policy.sessionRoot === undefined) issues.push('session.dir: this worker names no sessionRoot, so a job may not name a session dir (createWorker({ sessionRoot }))');
    else if (!isAbsolute(dir) || !(await isInside(policy.sessionRoot, dir))) issues.push(`session.dir: ${dir} is outside the worker's sessionRoot ${policy.sessionRoot}`);
  }
  return issues;
}

/** Every option of the job this worker refuses, each named with why; empty when the job may run. */
export async function refusedOptions(data: JobData, policy: JobPolicy): Promise<string[]> {
  const issues: string[] = [];
  for (const key of workerOnlyOptions) {
    if (data.options[key] !== undefined && !policy.allowOptions.has(key)) issues.push(`${key}: a job may not set it; the worker decides (createWorker({ allowOptions: ['${key}'] }) lets jobs set it)`);
  }
  for (const [key, { values, why }] of Object.entries(refusedValues)) {
    const given = data.options[key];
    const value = key === 'permissionPolicy' ? (given as { mode?: unknown } | undefined)?.mode : given;
    const name = key === 'permissionPolicy' ? 'permissionPolicy.mode' : key;
    if (values.includes(value) && !policy.allowOptions.has(key)) issues.push(`${name}: ${JSON.stringify(value)} ${why}; a job may not set it (createWorker({ allowOptions: ['${key}'] }) lets jobs set it)`);
  }
  return [...issues, ...(await pathIssues(data, policy))];
}
