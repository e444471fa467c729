// The redaction of a run's secrets: which values count, the floor for short ones, JSON-escaped forms,
// and events redacted in their content but not in what names them.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MIN_REDACTED_CHARS, optionSecrets, Redactor, runRedactor } from '../../src/core/secrets/redact.js';
import type { TranslatedEvent } from '../../src/index.js';

const token = 'sk-live-0123456789abcdef';

describe('the secrets of a run', () => {
  it('are the values of extraEnv, of MCP servers\' env and headers, codexConfig, copilotAdditionalMcpConfig and extraArgs — not the names', () => {
    const secrets = optionSecrets({
      extraEnv: { GITHUB_TOKEN: 'ghp-env-value' },
      mcpServers: { github: { command: 'npx', args: ['server'], env: { TOKEN: 'stdio-env-value' } }, remote: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer header-value' } } },
      codexConfig: { 'model_providers.x.http_headers': { 'X-Key': 'codex-table-value' }, list: ['codex-array-value'], retries: 3, on: true },
      copilotAdditionalMcpConfig: JSON.stringify({ mcpServers: { s: { headers: { Authorization: 'copilot-json-value' } } } }),
      extraArgs: ['--api-key', 'args-bare-value', '--x=args-joined-value', '--verbose'],
    });
    expect(secrets).toEqual(['ghp-env-value', 'stdio-env-value', 'Bearer header-value', 'codex-table-value', 'codex-array-value', 'copilot-json-value', 'args-bare-value', 'args-joined-value']);
    // A copilot config that is not JSON (a path, `@file`) is one value; an object gives its leaves.
    expect(optionSecrets({ copilotAdditionalMcpConfig: '@/home/me/private-mcp.json' })).toEqual(['@/home/me/private-mcp.json']);
    expect(optionSecrets({ copilotAdditionalMcpConfig: { mcpServers: { s: { env: { K: 'copilot-object-value' } } } } })).toEqual(['copilot-object-value']);
  });

  it('include the CLI\'s auth variables in its environment and the tool bridge\'s secret', () => {
    const cli = { auth: { variables: ['FAKE_API_KEY'], storedLogin: 'nowhere' } };
    const redactor = runRedactor({}, cli, { FAKE_API_KEY: token, OTHER: 'not-a-secret-of-this-cli' }, 'bridge-secret-value')!;
    expect(redactor.text(`${token} bridge-secret-value not-a-secret-of-this-cli`)).toBe('<redacted> <redacted> not-a-secret-of-this-cli');
  });

  it('leave out extraEnv values of the CLI\'s own settings (the names its adapter keeps for inheritEnv: minimal)', () => {
    const cli = { environment: { minimal: ['FAKE_MODEL'] } };
    const redactor = runRedactor({ extraEnv: { FAKE_MODEL: 'fake-model-large', FAKE_TOKEN: token } }, cli, {})!;
    expect(redactor.text(`model fake-model-large, key ${token}`)).toBe('model fake-model-large, key <redacted>');
  });
});

describe('Redactor', () => {
  it(`replaces every occurrence, as printed and JSON-escaped; values under ${MIN_REDACTED_CHARS} characters stay`, () => {
    const quoted = 'pa"ss\\word-1234';
    const redactor = Redactor.of([token, quoted, 'short', 'on'])!;
    expect(redactor.text(`a ${token} b ${token}`)).toBe('a <redacted> b <redacted>');
    // Inside a record the CLI printed, the value shows JSON-escaped.
    const line = JSON.stringify({ message: `bad password ${quoted}` });
    expect(redactor.holds(line)).toBe(true);
    expect(JSON.parse(redactor.text(line))).toEqual({ message: 'bad password <redacted>' });
    expect(redactor.text('short on one')).toBe('short on one');
    expect(Redactor.of(['short', 'on', ''])).toBeUndefined();
  });

  it('leaves a value that names a place on this machine (an existing path, PATH) and redacts one that does not', () => {
    const redactor = Redactor.of([tmpdir(), `${tmpdir()}:/nonexistent/bin`, `/${token}`])!;
    expect(redactor.text(`cwd ${tmpdir()}/x, PATH ${tmpdir()}:/nonexistent/bin, key /${token}`)).toBe(`cwd ${tmpdir()}/x, PATH ${tmpdir()}:/nonexistent/bin, key <redacted>`);
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    const redactor = Redactor.of(['abcdefgh', 'abcdefgh-and-more'])!;
    expect(redactor.text('x abcdefgh-and-more y abcdefgh')).toBe('x <redacted> y <redacted>');
  });

  it('redacts an event\'s content and raw record, not its type, kind or code; a clean event is the same object', () => {
    const redactor = Redactor.of([token])!;
    const raw = { type: 'item', item: { output: `token=${token}` } };
    const event: TranslatedEvent = { type: 'tool_result', id: 't1', output: { text: `printed ${token}` }, isError: false, raw };
    const redacted = redactor.event(event) as Extract<TranslatedEvent, { type: 'tool_result' }>;
    expect(redacted).toEqual({ type: 'tool_result', id: 't1', output: { text: 'printed <redacted>' }, isError: false, raw: { type: 'item', item: { output: 'token=<redacted>' } } });
    // The record other events of the same line share is left as it was.
    expect(raw.item.output).toBe(`token=${token}`);
    const clean: TranslatedEvent = { type: 'progress', kind: 'status', message: 'nothing here', raw: { a: [1, 'b'] } };
    expect(redactor.event(clean)).toBe(clean);
    // A secret that happens to equal a naming field does not rename the event.
    const named = Redactor.of(['tool_result'])!;
    expect(named.event(event).type).toBe('tool_result');
  });
});
