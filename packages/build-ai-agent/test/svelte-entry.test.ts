import { describe, expect, it } from 'vitest';
import * as entry from '@lousho/build-ai-agent/svelte';
import { loushoAgent } from '@lousho/svelte';

describe('@lousho/build-ai-agent/svelte', () => {
  it('is the Svelte binding, @lousho/svelte', () => {
    expect(entry.loushoAgent).toBe(loushoAgent);
    expect(Object.keys(entry)).toEqual(['loushoAgent']);
  });
});
