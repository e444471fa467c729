// The same app if the live ACP client were the official SDK: coderline's main entry and the SDK's client.
import '../../dist/index.js';
import './sdk-client.mjs';
