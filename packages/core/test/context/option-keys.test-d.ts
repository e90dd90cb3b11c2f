import { describe, expectTypeOf, it } from 'vitest';
import { createAgent, type CreateAgentConfig, type ExecuteOptions, type ResumeAfterApprovalOptions, type RunOptions } from '../../src/index.js';
import { CREATE_AGENT_OPTION_KEYS, EXECUTE_OPTION_KEYS, PLANNED_CREATE_AGENT_OPTIONS, RESUME_OPTION_KEYS, RUN_OPTION_KEYS } from '../../src/agent/option-keys.js';
import type { RetryOptions } from '@lousho/providers';
import { RETRY_OPTION_KEYS } from '../../src/agent/option-keys.js';
import { mockModel } from '@lousho/testing';

// The runtime lists of known keys and the options types must name the same keys, in both directions.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('the runtime option lists match the types', () => {
  it('createAgent(), execute(), resumeAfterApproval(), send(), retry', () => {
    expectTypeOf<Same<keyof typeof CREATE_AGENT_OPTION_KEYS, keyof CreateAgentConfig>>().toEqualTypeOf<true>();
    expectTypeOf<Same<keyof typeof EXECUTE_OPTION_KEYS, keyof ExecuteOptions>>().toEqualTypeOf<true>();
    expectTypeOf<Same<keyof typeof RESUME_OPTION_KEYS, keyof ResumeAfterApprovalOptions>>().toEqualTypeOf<true>();
    expectTypeOf<Same<keyof typeof RUN_OPTION_KEYS, keyof RunOptions>>().toEqualTypeOf<true>();
    expectTypeOf<Same<keyof typeof RETRY_OPTION_KEYS, keyof RetryOptions>>().toEqualTypeOf<true>();
  });

  it('an option that landed is no longer listed as planned', () => {
    expectTypeOf<Extract<keyof typeof PLANNED_CREATE_AGENT_OPTIONS & string, keyof CreateAgentConfig>>().toEqualTypeOf<never>();
  });

  it('the types reject unknown keys too', () => {
    const provider = mockModel(['x']);
    // @ts-expect-error misspelt option
    createAgent({ provider, toolConcurency: 2 });
    createAgent({ provider, subagents: {}, maxSubagentDepth: 1 });
    createAgent({ provider, toolConcurrency: 2, limits: { maxTokens: 10 } });
    const agent = createAgent({ provider });
    // @ts-expect-error misspelt run option
    void agent.send('hi', { sesionId: 's' });
    // @ts-expect-error a session sets its own id
    void agent.session('s').send('hi', { sessionId: 's' });
  });
});
