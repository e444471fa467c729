// How failed pi exits are explained. The stderr texts are hand-made, shaped like what pi prints.
import { describe, expect, it } from 'vitest';
import { explainPiExit } from '../../src/adapters/pi/index.js';

const exit = (stderrTail: string) => ({ exitCode: 1, signal: undefined, stderrTail });

describe('explainPiExit', () => {
  it('reports custom tools on a pi without MCP support as an unsupported version', () => {
    const explained = explainPiExit(exit('Extension error: Error: coderline: custom tools need pi >= 0.99 (this pi has no pi.registerMcpServer); upgrade to @earendil-works/pi-coding-agent\n    at load'));
    expect(explained).toEqual({ code: 'version_unsupported', message: expect.stringContaining('custom tools need pi >= 0.99') });
  });

  it('keeps the generic error for an unexplained exit', () => {
    expect(explainPiExit(exit('something else went wrong'))).toBeUndefined();
  });
});
