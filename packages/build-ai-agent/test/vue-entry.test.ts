import { describe, expect, it } from 'vitest';
import * as entry from '@lousho/build-ai-agent/vue';
import { useLoushoAgent } from '@lousho/vue';

describe('@lousho/build-ai-agent/vue', () => {
  it('is the Vue binding, @lousho/vue', () => {
    expect(entry.useLoushoAgent).toBe(useLoushoAgent);
    expect(Object.keys(entry)).toEqual(['useLoushoAgent']);
  });
});
