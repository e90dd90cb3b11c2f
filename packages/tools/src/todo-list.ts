import { ERROR_CODES, SDKError } from '@lousho/core';

/** A todo item's state; at most one item is `in_progress` at a time. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export const TODO_STATUSES: readonly TodoStatus[] = ['pending', 'in_progress', 'completed'];

/** One step of an agent's plan. */
export interface TodoItem {
  /** Assigned automatically (`todo_1`, `todo_2`, ...) unless the model passes one back. */
  id: string;
  content: string;
  status: TodoStatus;
}

/** An item as the model writes it: the id may be left out. */
export interface TodoDraft {
  id?: string | undefined;
  content: string;
  status: TodoStatus;
}

/** How many items are in each state. */
export interface TodoCounts {
  total: number;
  pending: number;
  in_progress: number;
  completed: number;
}

/** The code of the error a `todo_write` with an invalid list gets (`ERROR_CODES.LOUSHO_INVALID_TODO_LIST`). */
export const INVALID_TODO_LIST = ERROR_CODES.LOUSHO_INVALID_TODO_LIST;

/** The list a `todo_write` call sent breaks a rule; the model receives the message and can retry. */
export class TodoListError extends SDKError {
  constructor(message: string) {
    super(INVALID_TODO_LIST, message, { hint: 'Send the whole list again with the problem fixed.' });
    this.name = 'TodoListError';
  }
}

const ID_PATTERN = /^todo_(\d+)$/;

/** The highest `todo_N` number used in a list (0 when there is none). */
export function highestTodoNumber(items: readonly { id?: string | undefined }[]): number {
  let highest = 0;
  for (const item of items) {
    const match = item.id === undefined ? null : ID_PATTERN.exec(item.id);
    if (match?.[1]) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

/** Content compared loosely, so re-sending an item with other spacing or case keeps its id. */
function contentKey(content: string): string {
  return content.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Builds the list a `todo_write` call asked for from the current one.
 *
 * - An item that carries an id keeps it.
 * - An item without an id takes the id of an unclaimed current item with the same content, so a
 *   plan re-sent without ids keeps its ids; otherwise it gets the next `todo_N`.
 * - `nextNumber` is the smallest `N` a new id may use, so ids of removed items are not reused.
 *
 * Throws `TodoListError` for repeated ids, empty content or more than one `in_progress` item.
 */
export function applyTodoWrite(
  current: readonly TodoItem[],
  drafts: readonly TodoDraft[],
  nextNumber: number,
): { list: TodoItem[]; nextNumber: number } {
  const content = drafts.map((draft) => draft.content.trim());
  const emptyAt = content.findIndex((text) => text.length === 0);
  if (emptyAt !== -1) {
    throw new TodoListError(`Todo at position ${emptyAt + 1} has empty content; describe the step in a few words.`);
  }

  const inProgress = drafts.filter((draft) => draft.status === 'in_progress');
  if (inProgress.length > 1) {
    const names = inProgress.map((draft) => `'${draft.content.trim()}'`).join(', ');
    throw new TodoListError(
      `Only one todo may be in_progress at a time, but ${inProgress.length} are: ${names}. Keep one in_progress and mark the others pending or completed.`,
    );
  }

  const explicitIds = new Set<string>();
  for (const draft of drafts) {
    if (draft.id === undefined) continue;
    const id = draft.id.trim();
    if (id.length === 0) throw new TodoListError('A todo id must not be empty; leave `id` out to get one assigned.');
    if (explicitIds.has(id)) {
      throw new TodoListError(`The id '${id}' is used by more than one todo; each todo needs its own id (or none).`);
    }
    explicitIds.add(id);
  }

  // Current items still up for grabs by content: not claimed by an explicit id in this write.
  const unclaimed = current.filter((item) => !explicitIds.has(item.id));
  let counter = Math.max(nextNumber, highestTodoNumber(current) + 1, highestTodoNumber(drafts) + 1);
  const list = drafts.map((draft, index): TodoItem => {
    const text = content[index] ?? '';
    let id = draft.id?.trim();
    if (id === undefined) {
      const key = contentKey(text);
      const matchAt = unclaimed.findIndex((item) => contentKey(item.content) === key);
      const match = matchAt === -1 ? undefined : unclaimed.splice(matchAt, 1)[0];
      id = match ? match.id : nextFreeId();
    }
    return { id, content: text, status: draft.status };
  });
  return { list, nextNumber: counter };

  // `counter` is above every todo_N in the current list and in this write, so the id is free.
  function nextFreeId(): string {
    const id = `todo_${counter}`;
    counter += 1;
    return id;
  }
}

export function countTodos(list: readonly TodoItem[]): TodoCounts {
  const counts: TodoCounts = { total: list.length, pending: 0, in_progress: 0, completed: 0 };
  for (const item of list) counts[item.status] += 1;
  return counts;
}

export function copyTodos(list: readonly TodoItem[]): TodoItem[] {
  return list.map((item) => ({ id: item.id, content: item.content, status: item.status }));
}

export function sameTodos(a: readonly TodoItem[], b: readonly TodoItem[]): boolean {
  return (
    a.length === b.length &&
    a.every((item, index) => {
      const other = b[index];
      return other !== undefined && other.id === item.id && other.content === item.content && other.status === item.status;
    })
  );
}
