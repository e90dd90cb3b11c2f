import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type PermissionRule } from '../../src/index.js';
import { matchesToolName } from '../../src/agent/tool-name-pattern.js';
import { mockModel } from '@lousho/testing';

describe('permission rules by name pattern', () => {
  it('matchesToolName: * stands for any characters, anything else is literal', () => {
    expect(matchesToolName('*', 'anything')).toBe(true);
    expect(matchesToolName('github__*', 'github__create_issue')).toBe(true);
    expect(matchesToolName('github__*', 'github__')).toBe(true);
    expect(matchesToolName('github__*', 'gitlab__create_issue')).toBe(false);
    expect(matchesToolName('github__*', 'my_github__x')).toBe(false);
    expect(matchesToolName('*_file', 'read_file')).toBe(true);
    expect(matchesToolName('*__delete_*', 'notes__delete_note')).toBe(true);
    expect(matchesToolName('*__delete_*', 'notes__add_note')).toBe(false);
    expect(matchesToolName('a*a', 'a')).toBe(false);
    expect(matchesToolName('a*b*b', 'abb')).toBe(true);
    expect(matchesToolName('a*b*b', 'ab')).toBe(false);
    expect(matchesToolName('search', 'search')).toBe(true);
    expect(matchesToolName('search', 'search2')).toBe(false);
  });

  it("a rule on 'github__*' pauses every github__ tool and leaves the others alone", async () => {
    const ran: string[] = [];
    const tool = (name: string) => defineTool({ name, description: name, input: z.object({}), execute: async () => (ran.push(name), 'ok') });
    const permissions: PermissionRule[] = [{ tool: 'github__*', decision: 'ask' }];
    const tools = [tool('github__create_issue'), tool('notes__add')];

    const paused = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'github__create_issue', args: {} }] }, 'done']), tools, permissions }).send('go');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval?.toolName).toBe('github__create_issue');
    expect(ran).toEqual([]);

    const free = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'notes__add', args: {} }] }, 'done']), tools, permissions }).send('go');
    expect(free.finishReason).toBe('stop');
    expect(ran).toEqual(['notes__add']);
  });

  it('patterns work inside a list of names too, and deny by pattern gives the denied error', async () => {
    const tool = defineTool({ name: 'notes__delete_note', description: 'x', input: z.object({}), execute: async () => 'deleted' });
    const result = await createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'notes__delete_note', args: {} }] }, 'ok']),
      tools: [tool],
      permissions: [{ tool: ['other', '*__delete_*'], decision: 'deny', reason: 'no deleting' }],
    }).send('go');
    const message = result.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(message!.content as string)).toMatchObject({ kind: 'denied', reason: 'no deleting' });
  });
});
