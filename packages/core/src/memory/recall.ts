import { estimateTokens } from '../models/tokens.js';
import type { MemorySlot } from './slot.js';

/**
 * The system prompt section recalled from one memory: its newest items (newest first) that fit its
 * recall budget, or undefined when it recalls nothing (no items, or `recall: false`).
 */
export async function recallSection({ memory, slot }: MemorySlot, model: string | undefined): Promise<string | undefined> {
  const header = `## Memory: ${memory.name}\n${memory.description ? `${memory.description}. ` : ''}What was saved earlier, newest first. Save new things with remember_${memory.name}; search older ones with recall_${memory.name}.`;
  if (memory.recall === false) return undefined;
  const items = await memory.provider.recent(slot, memory.recall.limit);
  if (items.length === 0) return undefined;
  const lines: string[] = [];
  let tokens = 0;
  for (const item of items) {
    const line = `- [${item.createdAt.slice(0, 10)}] ${item.text.replace(/\s+/g, ' ').trim()}`;
    const cost = estimateTokens(line, model !== undefined ? { model } : {});
    if (tokens + cost > memory.recall.maxTokens) break;
    tokens += cost;
    lines.push(line);
  }
  return lines.length > 0 ? `${header}\n${lines.join('\n')}` : undefined;
}
