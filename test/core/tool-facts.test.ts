// The tool facts reader over hostile and odd inputs (hand-made on purpose: a CLI's output is
// untrusted, any shape must give facts, never a throw), and the join of a result with its call.
import { describe, expect, it } from 'vitest';
import type { ToolCatalog } from '../../src/core/contract/tool-catalog.js';
import { serverOfMcpName, toolFactsOf, withAskedToolFacts, withToolFacts } from '../../src/core/translate/tool-facts.js';
import type { TranslatedEvent } from '../../src/events.js';

const catalog: ToolCatalog = {
  source: 'test names',
  tools: {
    sh: { kind: 'shell', command: ['cmd', 'argv'] },
    patch: { kind: 'edit', paths: ['changes[].path', 'file', 'files[]'] },
    look: { kind: 'web_search', query: ['q', 'action.query'], url: ['action.url'] },
  },
  mcp: { spelling: 'mcp__<server>__<tool>', server: serverOfMcpName },
};

describe('toolFactsOf', () => {
  it('reads each fact from the first field that holds one; a word list is a command line', () => {
    expect(toolFactsOf(catalog, 'sh', { cmd: 'ls -la' })).toEqual({ kind: 'shell', name: 'sh', command: 'ls -la' });
    expect(toolFactsOf(catalog, 'sh', { cmd: 7, argv: ['git', 'status'] })).toEqual({ kind: 'shell', name: 'sh', command: 'git status' });
    expect(toolFactsOf(catalog, 'look', { action: { query: 'q1', url: 'https://x.test/' } })).toEqual({ kind: 'web_search', name: 'look', query: 'q1', url: 'https://x.test/' });
  });

  it('collects every path once, in order, from lists of objects and of strings', () => {
    const input = { changes: [{ path: '/a' }, { path: '/b' }, { nope: 1 }, 'x'], file: '/a', files: ['/c', 3, ''] };
    expect(toolFactsOf(catalog, 'patch', input).paths).toEqual(['/a', '/b', '/c']);
  });

  it('unknown names are `other`; MCP names give the server; the shown name can differ from the CLI\'s', () => {
    expect(toolFactsOf(catalog, 'mystery', { cmd: 'rm -rf /' })).toEqual({ kind: 'other', name: 'mystery' });
    expect(toolFactsOf(catalog, 'mcp__files__read', {})).toEqual({ kind: 'mcp', name: 'mcp__files__read', server: 'files' });
    expect(toolFactsOf(catalog, 'mcp__coderline__lookup', {}, undefined, 'lookup')).toEqual({ kind: 'mcp', name: 'lookup', server: 'coderline' });
    expect(toolFactsOf(catalog, 'mcp____', {}).kind).toBe('other');
  });

  it('inherited names and keys name nothing: a tool called "constructor", an input with __proto__', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(toolFactsOf(catalog, name, {})).toEqual({ kind: 'other', name });
    const input = JSON.parse('{"__proto__": {"cmd": "evil"}}') as unknown;
    expect(toolFactsOf(catalog, 'sh', input)).toEqual({ kind: 'shell', name: 'sh' });
    expect(toolFactsOf(catalog, 'patch', { changes: { path: '/not-a-list' } })).toEqual({ kind: 'edit', name: 'patch' });
  });

  it('any input shape gives facts, never a throw', () => {
    for (const input of [undefined, null, 'cmd', 42, [], [{ cmd: 'x' }], { cmd: null }, { changes: null }, { action: 'x' }]) {
      for (const name of ['sh', 'patch', 'look']) expect(() => toolFactsOf(catalog, name, input)).not.toThrow();
    }
  });
});

describe('withToolFacts', () => {
  const events = (batches: TranslatedEvent[][]) => {
    let index = 0;
    return withToolFacts(catalog, { translate: () => batches[index++] ?? [] });
  };

  it('joins a result with its call by id (a copy), and a result without a call seen gets the facts of its name', () => {
    const translator = events([
      [{ type: 'tool_use', id: 'a', name: 'sh', input: { cmd: 'make' }, raw: {} }],
      [{ type: 'tool_result', id: 'a', output: 'ok', isError: false, raw: {} }],
      [{ type: 'tool_result', id: 'b', name: 'patch', output: 'ok', isError: false, raw: {} }],
      [{ type: 'tool_result', id: 'a', output: 'again', isError: false, raw: {} }],
    ]);
    const [use] = translator.translate(null);
    const [result] = translator.translate(null);
    expect(use).toMatchObject({ tool: { kind: 'shell', command: 'make' } });
    expect(result).toMatchObject({ tool: { kind: 'shell', name: 'sh', command: 'make' } });
    expect(result?.type === 'tool_result' && use?.type === 'tool_use' && result.tool !== use.tool).toBe(true);
    expect(translator.translate(null)[0]).toMatchObject({ tool: { kind: 'edit', name: 'patch' } });
    // A second result of one id is not joined again (the call was forgotten after its result).
    expect(translator.translate(null)[0]).not.toHaveProperty('tool');
  });

  it('a custom tool goes by the user\'s name and is kind mcp by its CLI name', () => {
    const translator = events([[{ type: 'tool_use', id: 'c', name: 'sh', input: { cmd: 'x' }, extra: { cliToolName: 'mcp__coderline__sh' }, raw: {} }]]);
    expect(translator.translate(null)[0]).toMatchObject({ name: 'sh', tool: { kind: 'mcp', name: 'sh', server: 'coderline' } });
  });
});

describe('withAskedToolFacts', () => {
  it('adds the facts to each permission request, keeps the codec\'s answer', () => {
    const codec = withAskedToolFacts(catalog, { request: (body) => (body ? { toolName: 'sh', input: { cmd: 'rm x' } } : undefined), answer: () => 'yes' });
    expect(codec.request({})).toEqual({ toolName: 'sh', input: { cmd: 'rm x' }, tool: { kind: 'shell', name: 'sh', command: 'rm x' } });
    expect(codec.request(undefined)).toBeUndefined();
    expect(codec.answer({ behavior: 'allow' }, { toolName: 'sh', input: {} })).toBe('yes');
  });
});
