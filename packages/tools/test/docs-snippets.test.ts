/**
 * The snippets of the Tools docs (lousho-tools.md) that use a built-in tool, as written there.
 * Imports point at this package's sources and at `@lousho/core` instead of `@lousho/build-ai-agent`;
 * the `createAgent(...)` lines are left out (core's own docs-snippets test covers the rest).
 */
import { defineTool, ToolRegistry } from '@lousho/core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { currentDateTool } from '../src/index.js';

describe('lousho-tools.md', () => {
  test('ToolRegistry: register(tool) and register(name, descriptor)', () => {
    const lookupOrder = defineTool({
      name: 'lookup_order',
      description: 'Look up an order',
      input: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
    });

    const tools = new ToolRegistry();
    tools.register(lookupOrder);
    tools.register('current_date', currentDateTool);

    expect(tools.names()).toEqual(['lookup_order', 'current_date']);
  });

  test('built-in descriptors are keyed by the name the agent uses', () => {
    // `createAgent({ tools: { current_date: currentDateTool } })` hands this record to a registry.
    const tools = new ToolRegistry().registerMany({ current_date: currentDateTool });
    expect(tools.get('current_date')!.descriptor).toBe(currentDateTool);
  });
});
