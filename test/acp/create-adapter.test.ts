// createAcpAdapter(): the preset is checked before anything can start (an attacker's preset values
// cannot become flags, variables or a shell command), and what an ACP-only agent cannot do fails fast.
import { describe, expect, it } from 'vitest';
import { createAcpAdapter, createCoder, FeatureNotSupportedError, InvalidOptionsError, run } from '../../src/index.js';

const issuesOf = (preset: unknown): string[] => {
  try {
    createAcpAdapter(preset as Parameters<typeof createAcpAdapter>[0]);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionsError);
    return (error as InvalidOptionsError).issues;
  }
  return [];
};

describe('createAcpAdapter: the preset', () => {
  it('a well-formed preset is an adapter with the live mode and no one-shot mode', () => {
    const agent = createAcpAdapter({ name: 'my-agent', command: 'my-agent', args: ['--acp'], env: { MY_AGENT_TELEMETRY: '0' }, credentials: ['MY_AGENT_KEY'] });
    expect(agent).toMatchObject({ name: 'my-agent', binary: 'my-agent', versionProbe: false, canFork: false, auth: { variables: ['MY_AGENT_KEY'] } });
    expect(Object.keys(agent.live!.capabilities).sort()).toEqual(['interrupt', 'open']);
    expect(Object.keys(agent.capabilities).sort()).toEqual(['canUseTool', 'streamPartialMessages', 'workingDirectory']);
    // send() attaches nothing the agent was not said to take.
    expect(agent.live!.notLive).toEqual(['images', 'files']);
    expect(createAcpAdapter({ name: 'seeing-agent', command: 'x', capabilities: { images: true } }).live!.notLive).toEqual(['files']);
  });

  it('refuses every malformed field, each named, before anything starts', () => {
    expect(issuesOf({ name: 'Bad Name', command: 'x' })).toEqual([expect.stringMatching(/^createAcpAdapter: name: lowercase letters/)]);
    expect(issuesOf({ name: 'a', command: '' })[0]).toMatch(/^createAcpAdapter: command/);
    // A NUL byte would cut the argument (or the value) where the process reads it.
    expect(issuesOf({ name: 'a', command: 'x', args: ['--acp\0--yolo'] })).toEqual(['createAcpAdapter: args.0: an argument must not contain a NUL byte']);
    // "NODE_OPTIONS=--require=x " as a name would set NODE_OPTIONS.
    expect(issuesOf({ name: 'a', command: 'x', env: { 'NODE_OPTIONS=--require=/tmp/x ': '1' } })[0]).toMatch(/^createAcpAdapter: env.*variable name/);
    expect(issuesOf({ name: 'a', command: 'x', env: { OK: 'a\0b' } })).toEqual(['createAcpAdapter: env.OK: an env value must not contain a NUL byte']);
    expect(issuesOf({ name: 'a', command: 'x', toolKinds: { execute: 'shel' } })[0]).toMatch(/^createAcpAdapter: toolKinds.execute/);
    expect(issuesOf({ name: 'a', command: 'x', capabilities: { yolo: true } })[0]).toMatch(/yolo/);
    expect(issuesOf({ name: 'a', command: 'x', shell: true })[0]).toMatch(/shell/);
    expect(issuesOf({ name: 'a' })[0]).toMatch(/command/);
    expect(issuesOf('my-agent').length).toBe(1);
  });

  it('keeps its own copy: changing the preset object afterwards changes nothing', async () => {
    const preset = { name: 'copy-agent', command: 'copy-agent', args: ['--acp'] };
    const agent = createAcpAdapter(preset);
    preset.args.push('--yolo');
    const invocation = await agent.live!.buildInvocation({ session: { kind: 'new' } } as never);
    expect(invocation.args).toEqual(['--acp']);
  });
});

describe('createAcpAdapter: what an ACP-only agent cannot do fails before anything spawns', () => {
  // A command that cannot be started: reaching a spawn would fail differently (CliNotFoundError).
  const agent = createAcpAdapter({ name: 'nowhere-agent', command: '/nonexistent/nowhere-agent', capabilities: { loadSession: false } });

  it('run() is a FeatureNotSupportedError pointing at open()', async () => {
    await expect(run(agent, 'hi')).rejects.toThrow(FeatureNotSupportedError);
    await expect(run(agent, 'hi')).rejects.toThrow(/open\(\)/);
  });

  it('options it has no capability for are refused by name (extraArgs, model), images at open() as everywhere', async () => {
    const coder = createCoder(agent);
    await expect(coder.open({ extraArgs: ['--yolo'] })).rejects.toMatchObject({ name: 'FeatureNotSupportedError', option: 'extraArgs' });
    await expect(coder.open({ model: 'x' })).rejects.toMatchObject({ option: 'model', message: expect.stringContaining("preset's args or env") });
    await expect(coder.open({ images: ['a.png'] })).rejects.toBeInstanceOf(InvalidOptionsError);
    await coder.close();
  });

  it('a preset that cannot load a session refuses open({ sessionId })', async () => {
    const coder = createCoder(agent);
    await expect(coder.open({}, { sessionId: 'abc-123' })).rejects.toMatchObject({ name: 'FeatureNotSupportedError', option: 'open(options, { sessionId })' });
    await coder.close();
  });
});
