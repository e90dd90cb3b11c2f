// The isomorphic entry: channels put an agent in front of people over HTTP, webhooks or a channel of
// your own (Fetch `Request` in, `Response` out, so browsers' bundlers and edge workers take it too).
// The Node adapter of the HTTP handler is at `@lousho/node/node`.
export * from './channels/index.js';
