import { describe, expect, it } from 'vitest';
import * as neutral from '@lousho/build-ai-agent/sessions';
import * as react from '@lousho/build-ai-agent/react/sessions';
import * as vue from '@lousho/build-ai-agent/vue/sessions';
import * as svelte from '@lousho/build-ai-agent/svelte/sessions';
import { createSessionList } from '@lousho/client/sessions';
import { useLoushoSessions as useReactSessions } from '@lousho/react/sessions';
import { useLoushoSessions as useVueSessions } from '@lousho/vue/sessions';
import { loushoSessions } from '@lousho/svelte/sessions';

describe('the thread-list subpaths of @lousho/build-ai-agent', () => {
  it('are the packages\' own', () => {
    expect(neutral.createSessionList).toBe(createSessionList);
    expect(react.useLoushoSessions).toBe(useReactSessions);
    expect(vue.useLoushoSessions).toBe(useVueSessions);
    expect(svelte.loushoSessions).toBe(loushoSessions);
  });
});
