import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AgentExecutor, createAgent, ERROR_CODES, resumeAfterApproval, UnknownOptionError, type SDKError } from '../../src/index.js';
import { closestName } from '@lousho/protocol';
import { CREATE_AGENT_OPTION_KEYS, PLANNED_CREATE_AGENT_OPTIONS } from '../../src/agent/option-keys.js';
import { checkOptionKeys } from '@lousho/protocol';
import { mockModel } from '@lousho/testing';

function caught(fn: () => unknown): SDKError {
  try {
    fn();
  } catch (error) {
    return error as SDKError;
  }
  throw new Error('did not throw');
}

describe('unknown options are errors', () => {
  it('createAgent() names the key and the closest known one', () => {
    const error = caught(() => createAgent({ provider: mockModel(['x']), toolConcurency: 2 } as never));
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error.code).toBe(ERROR_CODES.LOUSHO_UNKNOWN_OPTION);
    expect(error.message).toBe('createAgent() has no option `toolConcurency`: did you mean `toolConcurrency`?');
    expect(error).toMatchObject({ option: 'toolConcurency', suggestion: 'toolConcurrency' });
  });

  it('suggests across case and plural slips; names no suggestion when nothing is close', () => {
    expect(caught(() => createAgent({ provider: mockModel(['x']), Instructions: 'hi' } as never)).message).toContain('did you mean `instructions`?');
    expect(caught(() => createAgent({ provider: mockModel(['x']), tool: [] } as never)).message).toContain('did you mean `tools`?');
    const far = caught(() => createAgent({ provider: mockModel(['x']), colour: 'red' } as never));
    expect(far.message).toBe('createAgent() has no option `colour`.');
    expect(far.hint).toContain('Remove `colour`');
  });

  it('a documented option that is not built yet is refused as such, never ignored', () => {
    // Every documented createAgent() option is built today (the planned list is empty); the check
    // itself still refuses a planned key with its own code.
    expect(Object.keys(PLANNED_CREATE_AGENT_OPTIONS)).toEqual([]);
    const error = caught(() => checkOptionKeys('createAgent()', { teleport: {} }, { provider: true }, { teleport: 'Teleporting' }));
    expect(error.code).toBe(ERROR_CODES.LOUSHO_UNSUPPORTED_OPTION);
    expect(error.message).toContain('`teleport` is documented');
    expect(error.message).toContain('not built in this version yet');
  });

  it('a misspelt option still points at the documented one', () => {
    expect(caught(() => createAgent({ provider: mockModel(['x']), subagent: {} } as never)).message).toContain('did you mean `subagents`?');
  });

  it('send() / stream() / session options are checked on every call', async () => {
    const agent = createAgent({ provider: mockModel(['a', 'b'], { whenExhausted: 'repeat-last' }) });
    await expect(agent.send('hi', { sesionId: 's' } as never)).rejects.toMatchObject({ code: 'LOUSHO_UNKNOWN_OPTION', message: expect.stringContaining('did you mean `sessionId`?') });
    expect(() => agent.stream('hi', { metdata: {} } as never)).toThrow(/send\(\)|stream\(\) has no option `metdata`: did you mean `metadata`\?/);
    const session = agent.session('s1');
    // A session sets its own id: passing one would be ignored, so it is refused.
    await expect(session.send('hi', { sessionId: 'other' } as never)).rejects.toMatchObject({ code: 'LOUSHO_UNKNOWN_OPTION', option: 'sessionId' });
    expect(() => session.stream('hi', { signall: undefined } as never)).toThrow(/did you mean `signal`/);
    // Nothing ran: the refusals happen before a run starts.
    expect(agent.sessions.get('s1')).toBeUndefined();
  });

  it('AgentExecutor.execute() and resumeAfterApproval() reject unknown keys', async () => {
    const provider = mockModel(['x']);
    await expect(AgentExecutor.execute({ agent: { name: 'a' }, input: 'hi', provider, maxStep: 2 } as never)).rejects.toMatchObject({
      code: 'LOUSHO_UNKNOWN_OPTION',
      message: 'AgentExecutor.execute() has no option `maxStep`: did you mean `maxSteps`?',
    });
    expect(() => AgentExecutor.stream({ agent: { name: 'a' }, input: 'hi', provider, subagent: {} } as never)).toThrow(/did you mean `subagents`/);
    await expect(resumeAfterApproval({ approvalId: 'x', approved: true, agent: { name: 'a' }, provider, input: 'hi' } as never)).rejects.toMatchObject({ code: 'LOUSHO_UNKNOWN_OPTION', option: 'input' });
  });

  it('keys with undefined values count too (a misspelt key is a mistake whatever its value)', () => {
    expect(() => createAgent({ provider: mockModel(['x']), maxStesp: undefined } as never)).toThrow(/did you mean `maxSteps`/);
  });

  it('every known key is accepted at run time (the list the compiler checks against the type)', () => {
    // Values that pass each option's own checks, so only the key check is exercised.
    expect(Object.keys(CREATE_AGENT_OPTION_KEYS).length).toBeGreaterThan(30);
    expect(() => createAgent({ provider: mockModel(['x']), maxSteps: 3, toolConcurrency: 1, limits: {}, skills: [], memory: [], compaction: false, fallbackModels: [], retry: false })).not.toThrow();
  });
});

describe('closestName', () => {
  it('finds a one-edit typo of any known key', () => {
    const keys = Object.keys(CREATE_AGENT_OPTION_KEYS).filter((k) => k.length >= 4);
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.nat(), fc.constantFrom('drop', 'swap', 'double'), (key, at, kind) => {
        const i = at % (key.length - 1);
        const typo = kind === 'drop' ? key.slice(0, i) + key.slice(i + 1) : kind === 'swap' ? key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2) : key.slice(0, i) + key[i] + key.slice(i);
        fc.pre(!keys.includes(typo));
        const suggestion = closestName(typo, keys);
        expect(suggestion).toBeDefined();
        // Another key may be as close; the suggestion is never further than the original.
        expect(closestName(typo, [suggestion!])).toBe(suggestion);
      }),
    );
  });

  it('suggests nothing for unrelated words', () => {
    expect(closestName('banana', ['tools', 'model', 'memory'])).toBeUndefined();
    expect(closestName('x', ['tools'])).toBeUndefined();
  });
});
