// The user_message event of a pushed message, where the CLI's own records show it: a replay of the
// recorded steer canaries (pi's user message_end, Codex's userMessage item after the turn's prompt)
// gives it, placed after the tool call it joined, and never for the turn's own prompt.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/replay/live-recording.js';
import { replayLive } from '../../src/replay/index.js';

const fixture = (cli: string, version: string) => parseRecording(readFileSync(new URL(`../../fixtures/${cli}/${version}/compat/live/steer.jsonl`, import.meta.url), 'utf8'));

describe.each([['pi', '1.6.0'], ['codex', '0.171.0']] as const)('%s %s steer recording', (cli, version) => {
  it('replays to one user_message with the pushed text, after the tool_use, and none for the prompt', () => {
    const [turn] = replayLive(cli, fixture(cli, version));
    const types = turn!.map((event) => event.type);
    expect(turn!.filter((event) => event.type === 'user_message')).toMatchObject([{ type: 'user_message', text: 'STEERED: mind the tests.' }]);
    expect(types.indexOf('user_message')).toBeGreaterThan(types.indexOf('tool_use'));
  });
});
