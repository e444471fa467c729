// Cold start of coderline's own ACP path: the built package's main entry (its live host, JSON-RPC
// channel and ACP client are in the main chunks), as an app that opens a live session loads it.
import '../../dist/index.js';
