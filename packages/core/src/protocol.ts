// The `@lousho/core/protocol` entry: the wire both halves share. It lives in @lousho/protocol now
// (its `wire` entry, the same names); this subpath stays so imports of it keep working.
export * from '@lousho/protocol/wire';
