// Helpers shared by the live-session suites of the CLIs that talk chat completions to the fake model.
import { expect } from 'vitest';
import type { AdapterSpec } from '../../src/core/adapter.js';
import { createCoder, LiveSessionClosedError, type LiveSession, type OneShotOpts } from '../../src/index.js';
import type { FakeModel, RecordedRequest } from '../../src/testing/index.js';
import { cleanupAfterTest } from './cleanup.js';
import { isGroupAlive } from './processes.js';
import { waitFor } from './wait.js';

/** Opens a live session on a coder of its own; both are closed after the test. */
export async function openLive<P extends string>(adapter: AdapterSpec<P>, opts: OneShotOpts): Promise<LiveSession<P>> {
  const coder = createCoder(adapter);
  const live = await coder.open(opts);
  cleanupAfterTest(() => live.close(), () => coder.close());
  return live;
}

/** The parts of a chat-completions request body the live suites look at. */
export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: unknown; tool_call_id?: string }>;
}
export const chatBody = (request: RecordedRequest | undefined) => request?.body as ChatBody;
/** The first tool message (a tool call's result as the model reads it) of a request. */
export const toolMessage = (request: RecordedRequest | undefined) => chatBody(request).messages.find((message) => message.role === 'tool');
export const contentText = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

/**
 * Kills the CLI of `live` (with SIGKILL) while a turn waits on a hung model (the `model`'s first
 * request): the turn fails with a clear error, a later send() is refused, the process group is gone.
 */
export async function expectKilledFromOutside(live: LiveSession<string>, model: FakeModel): Promise<void> {
  const stuck = live.send('Hang.');
  await waitFor(() => model.requests.length === 1);
  process.kill(live.pid!, 'SIGKILL');
  expect(await stuck.result).toMatchObject({ status: 'error', signal: 'SIGKILL', error: { code: 'exit', message: expect.stringContaining('killed by SIGKILL') } });
  await expect(live.send('Anyone?').result).rejects.toBeInstanceOf(LiveSessionClosedError);
  expect(isGroupAlive(live.pid!)).toBe(false);
}
