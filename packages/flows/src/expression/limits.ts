/** Longest expression accepted, in characters (before placeholders are bound). */
export const MAX_EXPRESSION_LENGTH = 4096;

/** Deepest expression tree accepted: nested groups, operators and member accesses together. */
export const MAX_EXPRESSION_DEPTH = 100;
