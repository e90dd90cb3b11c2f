/* global process */
// Fails to start: says why on stderr, then exits before the MCP handshake.
process.stderr.write('notes database is locked\n');
process.exit(2);
