import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildToolRunContext, createAgent, defineTool, type ToolExecutionContext } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

// buildToolRunContext() is the `ctx` of a tool call run by hand (a wrapper, a test, a flow node):
// lousho-tools.md ("Execute context") promises it has the shape the agent loop gives.

describe('buildToolRunContext', () => {
  it('copies and freezes the transcript, and passes the optional fields through only when set', () => {
    const controller = new AbortController();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const ctx = buildToolRunContext({ toolCallId: 'call_1', messages, abortSignal: controller.signal, sessionId: 's1' });
    expect(ctx).toMatchObject({ toolCallId: 'call_1', messages: [{ role: 'user', content: 'hi' }], abortSignal: controller.signal, sessionId: 's1' });
    expect(Object.isFrozen(ctx.messages)).toBe(true);
    messages.push({ role: 'user', content: 'later' });
    expect(ctx.messages).toHaveLength(1);
    const bare = buildToolRunContext();
    expect(bare.toolCallId).toMatch(/^call_/);
    expect(bare.messages).toEqual([]);
    expect('abortSignal' in bare || 'sessionId' in bare).toBe(false);
    expect(() => bare.reportProgress?.({ done: 1 })).not.toThrow();
    expect(buildToolRunContext().toolCallId).not.toBe(bare.toolCallId);
  });

  it('sends reportProgress where it is told to', () => {
    const seen: unknown[] = [];
    buildToolRunContext({ reportProgress: (p) => seen.push(p) }).reportProgress?.({ done: 2 });
    expect(seen).toEqual([{ done: 2 }]);
  });

  it('has the same fields, with the same kinds of values, as the ctx the agent loop gives a call', async () => {
    let fromLoop: ToolExecutionContext | undefined;
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a word up.',
      input: z.object({ word: z.string() }),
      execute: (_args, ctx) => {
        fromLoop = ctx;
        return 'found';
      },
    });
    const controller = new AbortController();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ id: 'call_7', name: 'lookup', args: { word: 'lousho' } }] }, 'Done.']), tools: [lookup] });
    await agent.send('Look up lousho.', { signal: controller.signal });
    expect(fromLoop).toBeDefined();
    const byHand = buildToolRunContext({ toolCallId: 'call_7', messages: fromLoop!.messages, abortSignal: fromLoop!.abortSignal! });
    expect(Object.keys(byHand).sort()).toEqual(Object.keys(fromLoop!).sort());
    for (const key of Object.keys(fromLoop!) as (keyof ToolExecutionContext)[]) expect(typeof byHand[key], key).toBe(typeof fromLoop![key]);
    expect(fromLoop!.toolCallId).toBe('call_7');
    expect(Object.isFrozen(fromLoop!.messages)).toBe(true);
  });
});
