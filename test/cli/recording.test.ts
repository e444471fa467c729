// A recording's header: the options the translator reads, with names kept and secret values redacted
// whatever their length (the raw lines are redacted by value, test/cli/run.e2e.test.ts).
import { describe, expect, it } from 'vitest';
import { shareableOptions } from '../../src/cli/recording.js';

describe('a recording header', () => {
  it('keeps codexConfig keys, copilotAdditionalMcpConfig\'s shape and extraArgs flags, and redacts every value', () => {
    // A token in each: a Codex provider header, a Copilot MCP server's header, a flag's value.
    const header = shareableOptions({
      model: 'gpt-5.5',
      codexConfig: { 'model_providers.x.http_headers': { Authorization: 'Bearer sk-codex' }, retries: 0, on: true, list: ['a'] },
      copilotAdditionalMcpConfig: JSON.stringify({ mcpServers: { s: { type: 'http', headers: { Authorization: 'Bearer sk-copilot' } } } }),
      extraArgs: ['--verbose', '--api-key', 'sk-bare', '--x=sk-joined', '-', '--'],
      extraEnv: { TOKEN: 'sk-env' },
      mcpServers: { s: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer sk-mcp' } } },
    });
    expect(header).toEqual({
      model: 'gpt-5.5',
      codexConfig: { 'model_providers.x.http_headers': { Authorization: '<redacted>' }, retries: '<redacted>', on: '<redacted>', list: ['<redacted>'] },
      copilotAdditionalMcpConfig: JSON.stringify({ mcpServers: { s: { type: '<redacted>', headers: { Authorization: '<redacted>' } } } }),
      extraArgs: ['--verbose', '--api-key', '<redacted>', '--x=<redacted>', '-', '--'],
    });
    expect(JSON.stringify(header)).not.toMatch(/sk-/);
  });

  it('redacts a copilotAdditionalMcpConfig that is a path or an object', () => {
    expect(shareableOptions({ copilotAdditionalMcpConfig: '@/home/me/mcp.json' })).toEqual({ copilotAdditionalMcpConfig: '<redacted>' });
    expect(shareableOptions({ copilotAdditionalMcpConfig: { mcpServers: { s: { env: { K: 'sk-x' } } } } })).toEqual({ copilotAdditionalMcpConfig: { mcpServers: { s: { env: { K: '<redacted>' } } } } });
  });
});
