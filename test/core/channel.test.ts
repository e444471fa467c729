// The core's duplex channel against a real peer process (test/fake-cli/rpc-peer.mjs) speaking JSON-RPC.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DuplexChannel, type ChannelHandlers } from '../../src/core/protocols/channel.js';
import { jsonRpc } from '../../src/core/contract/json-rpc.js';
import { LiveSessionClosedError } from '../../src/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { isGroupAlive, isProcessAlive } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const PEER = fileURLToPath(new URL('../fake-cli/rpc-peer.mjs', import.meta.url));

function open(handlers: Partial<ChannelHandlers> = {}) {
  const seen = { lines: [] as string[], sent: [] as string[], messages: [] as unknown[], malformed: [] as unknown[], stderr: [] as string[] };
  const channel = new DuplexChannel(
    { cli: { name: 'peer', installHint: '' }, executable: process.execPath, args: [PEER], cwd: process.cwd(), env: { ...process.env } as Record<string, string>, dialect: jsonRpc, maxLineBytes: 1024 },
    {
      rawLine: (line) => seen.lines.push(line),
      sentLine: (line) => seen.sent.push(line),
      message: (message) => seen.messages.push(message),
      request: async () => 'no handler',
      malformed: (problem) => seen.malformed.push(problem),
      stderr: (line) => seen.stderr.push(line),
      ...handlers,
    },
  );
  cleanupAfterTest(() => channel.kill());
  return { channel, seen };
}

describe('duplex channel', () => {
  it('matches answers to requests by id, also out of order, and rejects error answers with a protocol error', async () => {
    const { channel, seen } = open();
    const [a, b] = await Promise.all([
      channel.request({ method: 'echo', params: { n: 1 } }, { timeoutMs: 20_000, what: 'echo' }),
      channel.request({ method: 'echo', params: { n: 2 } }, { timeoutMs: 20_000, what: 'echo' }),
    ]);
    expect([a, b]).toEqual([{ n: 1 }, { n: 2 }]);
    await expect(channel.request({ method: 'fail' }, { timeoutMs: 20_000, what: 'fail' })).rejects.toMatchObject({ code: 'protocol', message: expect.stringContaining('it failed on purpose') });
    // Both directions are seen as lines.
    expect(seen.sent.map((line) => JSON.parse(line).method)).toEqual(['echo', 'echo', 'fail']);
    expect(seen.lines.map((line) => JSON.parse(line).id)).toEqual(expect.arrayContaining(['coderline-1', 'coderline-2', 'coderline-3']));
  });

  it('a request the peer never answers times out with a clear error, and the channel goes on', async () => {
    const { channel } = open();
    await expect(channel.request({ method: 'never' }, { timeoutMs: 200, what: 'the never request' })).rejects.toMatchObject({
      code: 'protocol',
      message: 'peer did not answer the never request within 200 ms',
    });
    await expect(channel.request({ method: 'echo', params: 'still here' }, { timeoutMs: 20_000, what: 'echo' })).resolves.toBe('still here');
  });

  it('answers requests from the peer with the handler\'s result; a throwing handler is an error reply, not a crash', async () => {
    let answer: () => unknown = () => ({ allowed: true });
    const { channel, seen } = open({ request: async (body) => answer() ?? body });
    await channel.request({ method: 'ask', params: { tool: 'rm' } }, { timeoutMs: 20_000, what: 'ask' });
    await waitFor(() => seen.messages.length === 1);
    expect(seen.messages[0]).toMatchObject({ method: 'answered', params: { id: 'peer-1', result: { allowed: true } } });
    answer = () => {
      throw new Error('handler broke');
    };
    await channel.request({ method: 'ask', params: {} }, { timeoutMs: 20_000, what: 'ask' });
    await waitFor(() => seen.messages.length === 2);
    expect(seen.messages[1]).toMatchObject({ params: { id: 'peer-2', error: { message: 'handler broke' } } });
  });

  it('a request the peer withdraws aborts the handler\'s signal', async () => {
    let signal: AbortSignal | undefined;
    const { channel } = open({ request: (_body, given) => ((signal = given), new Promise((resolve) => given.addEventListener('abort', () => resolve('withdrawn')))) });
    await channel.request({ method: 'askThenCancel', params: {} }, { timeoutMs: 20_000, what: 'ask' });
    await waitFor(() => signal?.aborted === true);
  });

  it('a line that is not JSON or too long is reported, and the lines after it still arrive', async () => {
    const { channel, seen } = open();
    await channel.request({ method: 'garbage' }, { timeoutMs: 20_000, what: 'garbage' });
    // The echo's answer is the too-long line, so the request itself is never answered: wait for the report.
    void channel.request({ method: 'echo', params: 'x'.repeat(2000) }, { timeoutMs: 120_000, what: 'echo' }).catch(() => undefined);
    await waitFor(() => seen.malformed.length === 2);
    expect(seen.malformed).toEqual([{ line: 'this is not json' }, { bytes: expect.any(Number) }]);
    expect(seen.messages).toEqual([{ jsonrpc: '2.0', method: 'after_garbage' }]);
    expect(seen.lines).toContain('this is not json');
  });

  it('when the process ends, pending requests fail with LiveSessionClosedError naming the exit, and writes fail too', async () => {
    const { channel, seen } = open();
    const hanging = channel.request({ method: 'never' }, { timeoutMs: 60_000, what: 'never' });
    void channel.request({ method: 'exit' }, { timeoutMs: 60_000, what: 'exit' }).catch(() => undefined);
    const error = await hanging.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveSessionClosedError);
    expect((error as Error).message).toContain('the process exited with code 3');
    expect((error as Error).message).toContain('peer is leaving');
    expect(seen.stderr).toContain('peer is leaving');
    expect(channel.isOpen).toBe(false);
    expect(() => channel.write({ method: 'echo' })).toThrow(LiveSessionClosedError);
    await expect(channel.ended).resolves.toMatchObject({ exitCode: 3 });
  });

  it('close() ends stdin and stops the process group, leftovers included', async () => {
    const { channel } = open();
    const sleeper = (await channel.request({ method: 'spawnSleeper', params: { seconds: 120 } }, { timeoutMs: 20_000, what: 'spawn' })) as number;
    expect(isProcessAlive(sleeper)).toBe(true);
    const end = await channel.close(2_000);
    expect(end.exitCode).toBe(0);
    expect(isProcessAlive(sleeper)).toBe(false);
    expect(isGroupAlive(channel.pid!)).toBe(false);
  });

  it('a missing executable ends the channel with the start error', async () => {
    const channel = new DuplexChannel(
      { cli: { name: 'peer', installHint: 'Install the peer.' }, executable: '/nonexistent/peer-binary', args: [], cwd: process.cwd(), env: {}, dialect: jsonRpc, maxLineBytes: 1024 },
      { message: () => {}, request: async () => null, malformed: () => {}, stderr: () => {} },
    );
    const end = await channel.ended;
    expect(end.startError).toMatchObject({ code: 'binary_not_found' });
    await expect(channel.request({ method: 'echo' }, { timeoutMs: 1_000, what: 'echo' })).rejects.toBeInstanceOf(LiveSessionClosedError);
  });
});
