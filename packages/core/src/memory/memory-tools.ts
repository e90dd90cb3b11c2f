import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import type { ToolDescriptor } from '@lousho/protocol';
import type { MemorySlot } from './slot.js';

/** Longest text one `remember_*` call may save. */
const MAX_ITEM_CHARS = 4000;

/** `remember_<name>` and `recall_<name>` for one memory, bound to the run's slot. */
export function memoryTools({ memory, slot }: MemorySlot): Record<string, ToolDescriptor> {
  const about = memory.description ? ` (${memory.description})` : '';
  const remember = defineTool({
    name: `remember_${memory.name}`,
    displayName: `Remember (${memory.name})`,
    description: `Save something worth knowing in later conversations to the memory '${memory.name}'${about}: one self-contained fact or preference per call.`,
    input: z.object({ text: z.string().trim().min(1).max(MAX_ITEM_CHARS).describe('What to remember, written so it makes sense on its own later.') }),
    execute: async ({ text }) => {
      const item = await memory.provider.add(slot, text);
      return { saved: true, id: item.id };
    },
  });
  const recall = defineTool({
    name: `recall_${memory.name}`,
    displayName: `Recall (${memory.name})`,
    description: `Search the memory '${memory.name}'${about} for things saved earlier. Without a query, lists the newest items.`,
    input: z.object({
      query: z.string().max(500).optional().describe('Words to look for; leave out for the newest items.'),
      limit: z.number().int().min(1).max(50).optional().describe('Most items to return (default 10).'),
    }),
    execute: async ({ query, limit }) => {
      const n = limit ?? 10;
      const items = query && query.trim() ? await memory.provider.search(slot, query, n) : await memory.provider.recent(slot, n);
      return { items: items.map((item) => ({ text: item.text, savedAt: item.createdAt })) };
    },
  });
  return { [remember.name]: remember as ToolDescriptor, [recall.name]: recall as ToolDescriptor };
}
