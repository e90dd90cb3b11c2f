import { describe, expect, it } from 'vitest';
import { compactionNote } from '../src/display/compaction.js';

describe('compactionNote', () => {
  it('says how many older tool results were shortened', () => {
    expect(compactionNote({ pruned: 1, summarized: 0 })).toBe("An older tool result was shortened to fit the model's context.");
    expect(compactionNote({ pruned: 9, summarized: 0 })).toBe("9 older tool results were shortened to fit the model's context.");
  });

  it('says when older turns were summarized, and any results shortened with them', () => {
    expect(compactionNote({ pruned: 0, summarized: 19 })).toBe("Older turns were summarized to fit the model's context.");
    expect(compactionNote({ pruned: 3, summarized: 19 })).toBe("Older turns were summarized, and 3 older tool results shortened, to fit the model's context.");
  });
});
