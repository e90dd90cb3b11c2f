import { describe, expect, it } from 'vitest';
import * as entry from '@lousho/build-ai-agent/react';
import { useLoushoAgent } from '@lousho/react';

describe('@lousho/build-ai-agent/react', () => {
  it('is the React binding, @lousho/react', () => {
    expect(entry.useLoushoAgent).toBe(useLoushoAgent);
    expect(Object.keys(entry)).toEqual(['useLoushoAgent']);
  });
});
