// How a long-lived CLI spells requests and answers on its stdio: an adapter's LiveSpec gives one,
// the duplex channel (protocols/channel.ts) speaks it. A contract, so it sits beside AdapterSpec.
export type MessageId = string | number;
export type ReplyOutcome = { ok: true; result: unknown } | { ok: false; error: string };

/** How one protocol spells requests, answers and cancellations. */
export interface RpcDialect {
  /** The message that asks the peer `body` under `id`. */
  request(id: MessageId, body: unknown): unknown;
  /** When `message` answers one of our requests. */
  response(message: unknown): ({ id: MessageId } & ReplyOutcome) | undefined;
  /** When `message` asks us something and waits for the answer. */
  incoming(message: unknown): { id: MessageId; body: unknown } | undefined;
  /** Our answer to an incoming request. */
  reply(id: MessageId, outcome: ReplyOutcome): unknown;
  /** When `message` withdraws an incoming request: its id. */
  cancelled?(message: unknown): MessageId | undefined;
  /** A message that tells the peer `body` and expects no answer. */
  notification?(body: unknown): unknown;
}
