// Cold start of the official ACP client: import @agentclientprotocol/sdk and connect a client app to
// an in-memory newline-delimited JSON stream (what a live session would do before spawning the agent).
import { client, ndJsonStream } from '@agentclientprotocol/sdk';

const toAgent = new WritableStream();
const fromAgent = new ReadableStream({ start: (controller) => controller.close() });
const connection = client().onNotification('session/update', () => {}).connect(ndJsonStream(toAgent, fromAgent));
connection.close();
