// The command line: every shared option is a flag derived from the schema, values are converted,
// and mistakes say what was wrong and how to fix it (exit code 2, nothing runs).
import { describe, expect, it } from 'vitest';
import { optionSchemas } from '../../src/index.js';
import { optionFlags } from '../../src/cli/flags.js';
import { parseRunArgs, type RunPlan } from '../../src/cli/run-args.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { coderline } from './command.js';

const plan = (...argv: string[]) => parseRunArgs(argv, 'run') as RunPlan;
const usageError = (argv: string[], mode: 'run' | 'record' = 'run') => {
  try {
    parseRunArgs(argv, mode);
  } catch (error) {
    if (error instanceof UsageError) return `${error.message}\n${error.hint}`;
    throw error;
  }
  throw new Error('expected a UsageError');
};

describe('flags from the options schema', () => {
  it('every option a command line can hold has a flag; the rest have command flags', () => {
    const byFlag = new Set(optionFlags().map((option) => option.key));
    const shape = Object.keys(optionSchemas().oneShotOptsSchema.entries);
    // Callbacks and the signal are the command's own business; outputSchema is --schema and
    // permissionPolicy is --plan/--bypass/--allow/--deny.
    // Custom tools and canUseTool are functions too; outputJsonSchema goes with a library's schema, which
    // a command line cannot hold. A new option that lands here needs a decision: a flag, or a reason.
    expect(shape.filter((key) => !byFlag.has(key)).sort()).toEqual(['canUseTool', 'onEvent', 'onRawLine', 'outputJsonSchema', 'outputSchema', 'permissionPolicy', 'signal', 'tools']);
    expect(optionFlags().find((option) => option.key === 'maxTurns')).toMatchObject({ flag: 'max-turns', kind: 'number' });
    expect(optionFlags().find((option) => option.key === 'reasoningEffort')?.choices).toContain('xhigh');
  });

  it('converts values: numbers, enums, lists, KEY=VALUE pairs, typed pairs, JSON; aliases', () => {
    const parsed = plan(
      '--cli', 'codex', '--max-turns', '4', '--effort', 'high', '--cwd', '/tmp/x',
      '--add-dirs', 'a,b', '--add-dirs', 'c', '--extra-env', 'A=1', '--extra-env', 'B=x=y',
      '--codex-config', 'n=3', '--codex-config', 'flag=true', '--codex-config', 's=text',
      '--agents', '{"rev":{"description":"d","prompt":"p"}}', '--claude-bare', '--setting-sources', 'user,project',
      'do', 'it',
    );
    expect(parsed.prompt).toBe('do it');
    expect(parsed.options).toEqual({
      maxTurns: 4,
      reasoningEffort: 'high',
      workingDirectory: '/tmp/x',
      addDirs: ['a', 'b', 'c'],
      extraEnv: { A: '1', B: 'x=y' },
      codexConfig: { n: 3, flag: true, s: 'text' },
      agents: { rev: { description: 'd', prompt: 'p' } },
      claudeBare: true,
      settingSources: ['user', 'project'],
    });
  });

  it('--extra-args keeps each value whole (commas and dashes); --codex-config reads arrays and tables as JSON', () => {
    expect(plan('--cli', 'codex', '--extra-args=--tools=Read,Grep', '--extra-args=-x', '--codex-config', 'list=["a","b"]', '--codex-config', 't={"k":1}', 'go').options).toEqual({
      extraArgs: ['--tools=Read,Grep', '-x'],
      codexConfig: { list: ['a', 'b'], t: { k: 1 } },
    });
    expect(usageError(['--cli', 'codex', '--codex-config', 'list=[a', 'go'])).toContain('is not JSON');
  });

  it('folds --plan/--allow/--deny into permissionPolicy and picks the session from --resume/--fork/--continue', () => {
    expect(plan('--cli', 'claude', '--plan', '--allow', 'Read,Grep', '--deny', 'Bash', 'x').options).toEqual({
      permissionPolicy: { mode: 'plan', allow: ['Read', 'Grep'], deny: ['Bash'] },
    });
    expect(plan('--cli', 'claude', '--resume', 'abc', 'x').session).toEqual({ kind: 'resume', sessionId: 'abc' });
    expect(plan('--cli', 'claude', '--fork', 'abc', 'x').session).toEqual({ kind: 'fork', sessionId: 'abc' });
    expect(plan('--cli', 'claude', '--continue', 'x').session).toEqual({ kind: 'continue' });
    expect(plan('--cli', 'claude', '--', '--version please').prompt).toBe('--version please');
    expect(plan('--cli', 'claude', '--timeout', '1.5', 'x').timeoutMs).toBe(1500);
  });
});

describe('argument errors say what and how', () => {
  it.each([
    [['--cli', 'claude', '--modle', 'x', 'hi'], /unknown flag --modle \(did you mean --model\?\)/],
    [['--cli', 'claude', '--max-turns', 'many', 'hi'], /--max-turns expects a number, got "many"\nExample: --max-turns 10/],
    [['--cli', 'claude', '--effort', 'extreme', 'hi'], /--effort must be one of none, minimal, low, medium, high, xhigh, max; got "extreme"/],
    [['--cli', 'claude', '--reasoning-effort', 'extreme', 'hi'], /--reasoning-effort must be one of/],
    [['--cli', 'claude', '--setting-sources', 'user,team', 'hi'], /--setting-sources takes user, project, local; got "team"/],
    [['--cli', 'claude', '--extra-env', 'NOVALUE', 'hi'], /--extra-env expects KEY=VALUE, got a value without a KEY= \(the value is not shown: it can be a secret\)/],
    [['--cli', 'nosuchcli', 'hi'], /unknown CLI "nosuchcli"\n--cli takes one of claude, codex, copilot, pi, gemini/],
    [['hi'], /--cli is required/],
    [['--cli', 'claude'], /no prompt given\nPass the prompt as an argument, or `-` to read it from stdin/],
    [['--cli', 'claude', '--json', '--jsonl', 'hi'], /--json and --jsonl cannot be combined/],
    [['--cli', 'claude', '--resume', 'a', '--continue', 'hi'], /--resume and --continue cannot be combined/],
    [['--cli', 'claude', '--model'], /--model <value>' needs a value|--model .*needs a value/],
    [['--cli', 'claude', '--timeout', '0', 'hi'], /--timeout expects seconds greater than 0/],
  ])('%j', (argv, message) => {
    expect(usageError(argv)).toMatch(message);
  });

  it('a secret-bearing flag with a typo: the error names the flag, never the value', () => {
    // The careless user, in a CI log: a token without its KEY=, a JSON MCP config missing a brace, a
    // Codex config array cut short. The usage error goes to stderr; the token must not.
    const token = 'sk-live-typo-0123456789';
    for (const argv of [
      ['--cli', 'claude', '--extra-env', token, 'hi'],
      ['--cli', 'claude', '--mcp-servers', `{"gh":{"url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer ${token}"}}`, 'hi'],
      ['--cli', 'codex', '--codex-config', `keys=["${token}"`, 'hi'],
    ]) {
      const message = usageError(argv);
      expect(message).toContain('(the value is not shown: it can be a secret)');
      expect(message).not.toContain(token);
    }
  });

  it('record needs -o, run refuses it', () => {
    expect(usageError(['--cli', 'claude', 'hi'], 'record')).toMatch(/record needs -o FILE/);
    expect(usageError(['--cli', 'claude', '-o', 'f', 'hi'])).toMatch(/-o\/--output belongs to `coderline record`/);
  });

  it('as a process: exit 2, the message on stderr, nothing on stdout', async () => {
    const result = await coderline(['run', '--cli', 'claude', '--max-turns', 'x', 'hi']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('coderline: --max-turns expects a number, got "x"\nExample: --max-turns 10\n');

    const unknownCommand = await coderline(['rnu']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(/unknown command "rnu" \(did you mean "run"\?\)/);
  });

  it('options the schema rejects, or the CLI does not support, exit 2 before anything runs', async () => {
    const invalid = await coderline(['run', '--cli', 'claude', '--max-turns', '0', '--executable-path', '/nonexistent/claude', 'hi']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe('coderline: invalid options:\n  - --max-turns: Too small: expected number to be >0\n');

    const unsupported = await coderline(['run', '--cli', 'copilot', '--max-turns', '2', '--executable-path', '/nonexistent/copilot', 'hi']);
    expect(unsupported.code).toBe(2);
    expect(unsupported.stderr).toMatch(/copilot does not support the option "maxTurns"/);
  });

  it('a missing CLI exits 5 with the install hint', async () => {
    const result = await coderline(['run', '--cli', 'codex', '--executable-path', '/nonexistent/codex', '--quiet', 'hi']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/executable "\/nonexistent\/codex" was not found/);
  });

  it('--help lists every derived flag and the exit codes', async () => {
    const result = await coderline(['run', '--help']);
    expect(result.code).toBe(0);
    for (const option of optionFlags()) expect(result.stdout).toContain(`--${option.flag}`);
    expect(result.stdout).toMatch(/^ {2}130 +cancelled by Ctrl-C or SIGTERM$/m);
  });
});
