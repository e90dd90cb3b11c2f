import type { Message } from '@lousho/protocol';

/**
 * Marks a message that compaction never prunes or summarizes (e.g. the task statement, a key
 * document). Returns a pinned copy; the mark is kept in `metadata`, so it survives checkpoints.
 */
export function pinMessage<M extends Message>(message: M): M {
  return Object.freeze({ ...message, metadata: { ...message.metadata, pinned: true } });
}

export function isPinned(message: Message): boolean {
  return message.metadata?.pinned === true;
}
