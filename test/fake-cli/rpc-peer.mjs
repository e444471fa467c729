#!/usr/bin/env node
// A JSON-RPC 2.0 peer on stdio for the core channel's tests (it stands for no real CLI).
// Methods: echo (answers its params), fail (an error answer), never (no answer), ask (asks the host
// `question` and reports the answer as a notification), garbage (a line that is not JSON, then a
// notification), spawnSleeper (starts `sleep` in the group and answers its pid), exit (stderr, exit 3).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const waiting = new Map();
let asked = 0;

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    const reply = waiting.get(message.id);
    waiting.delete(message.id);
    reply?.(message);
    return;
  }
  switch (message.method) {
    case 'echo':
      return send({ id: message.id, result: message.params });
    case 'fail':
      return send({ id: message.id, error: { code: 1, message: 'it failed on purpose' } });
    case 'never':
      return undefined;
    case 'ask': {
      const id = `peer-${(asked += 1)}`;
      waiting.set(id, (reply) => send({ method: 'answered', params: reply }));
      send({ id, method: 'question', params: message.params });
      return send({ id: message.id, result: 'asked' });
    }
    case 'askThenCancel': {
      const id = `peer-${(asked += 1)}`;
      waiting.set(id, (reply) => send({ method: 'answered', params: reply }));
      send({ id, method: 'question', params: message.params });
      setTimeout(() => send({ method: '$/cancelRequest', params: { id } }), 50);
      return send({ id: message.id, result: 'asked' });
    }
    case 'garbage':
      process.stdout.write('this is not json\n');
      send({ method: 'after_garbage' });
      return send({ id: message.id, result: 'ok' });
    case 'spawnSleeper': {
      const child = spawn('sleep', [String(message.params.seconds)], { stdio: 'ignore' });
      child.unref();
      return send({ id: message.id, result: child.pid });
    }
    case 'exit':
      process.stderr.write('peer is leaving\n');
      return process.exit(3);
    default:
      return send({ id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
  }
});
