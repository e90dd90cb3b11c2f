// `@lousho/core/testing` (also `@lousho/build-ai-agent/testing`): deterministic providers for tests,
// `mockModel` and `recordReplay`. They live in @lousho/testing (below core: they need only the
// providers); this entry keeps the path working.
export * from '@lousho/testing';
