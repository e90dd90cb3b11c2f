// Node only: the HTTP handler's node:http / Express adapter and the http tool's Node transport.
export * from '@lousho/core/node';
