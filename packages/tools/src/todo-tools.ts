import { z } from 'zod';
import { defineTool, type DefinedTool } from '@lousho/core';
import {
  applyTodoWrite,
  copyTodos,
  countTodos,
  highestTodoNumber,
  sameTodos,
  TODO_STATUSES,
  type TodoCounts,
  type TodoItem,
  type TodoStatus,
} from './todo-list.js';

/** Where the todo list is kept. Both methods may be sync or async. */
export interface TodoStore {
  /** The current list (empty before the first write). */
  get(): TodoItem[] | Promise<TodoItem[]>;
  /** Replaces the list after a valid `todo_write`. */
  set(list: TodoItem[]): void | Promise<void>;
}

/** Options of `createTodoTools()`: where the list lives and who hears of changes. */
export interface TodoToolsOptions {
  /** Keeps the list somewhere else (a database, a session). Default: in memory, per `createTodoTools()` call. */
  store?: TodoStore;
  /**
   * Called with the new list after a `todo_write` changed it (and after it was stored), e.g. to
   * update a UI. A throw or rejection fails the tool call.
   */
  onChange?: (list: TodoItem[]) => void | Promise<void>;
}

/** What both todo tools return. */
export interface TodoListResult {
  todos: TodoItem[];
  counts: TodoCounts;
}

/** What the model sends to `todo_write`: the whole list, replacing the previous one. */
export interface TodoWriteArgs {
  todos: { id?: string | undefined; content: string; status: TodoStatus }[];
}

/** The `todo_write` tool: replaces the list and returns it with counts. */
export type TodoWriteTool = DefinedTool<'todo_write', TodoWriteArgs, TodoListResult>;
/** The `todo_read` tool: returns the list with counts. */
export type TodoReadTool = DefinedTool<'todo_read', Record<string, never>, TodoListResult>;

/** What `createTodoTools()` returns: the two tools for `createAgent({ tools })` and a way to read the list. */
export interface TodoTools {
  /** `[todo_write, todo_read]`, ready for `createAgent({ tools })`. */
  tools: [TodoWriteTool, TodoReadTool];
  /** A copy of the current list. */
  getTodos(): Promise<TodoItem[]>;
}

const todoItemInput = z.object({
  id: z.string().optional().describe('Id from an earlier result; leave out for a new item.'),
  content: z.string().trim().min(1, 'content must not be empty').describe('The step, in a few words.'),
  status: z.enum(TODO_STATUSES as [TodoStatus, ...TodoStatus[]]),
});

/**
 * Tools that let an agent keep a plan: `todo_write` replaces the whole list and `todo_read` reads
 * it back. Ids (`todo_1`, ...) are assigned automatically and kept when a later write repeats an
 * item's content; at most one item may be `in_progress`.
 */
export function createTodoTools(options: TodoToolsOptions = {}): TodoTools {
  const store = options.store ?? memoryStore();
  // Ids are never handed out twice by one instance, even after their item was removed.
  let nextNumber = 1;
  // Writes (and reads) run one at a time, so parallel calls in one turn cannot lose an update.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const load = async (): Promise<TodoItem[]> => copyTodos((await store.get()) ?? []);

  const todoWrite = defineTool({
    name: 'todo_write',
    displayName: 'Update plan',
    description:
      'Replace the whole todo list that tracks a multi-step task. Send every item each time (finished ones too) with its status: pending, in_progress or completed; at most one item may be in_progress. Keep the ids from earlier results; new items need no id. Returns the list and counts.',
    input: z.object({ todos: z.array(todoItemInput).describe('The complete list, in order.') }),
    execute: (args: TodoWriteArgs): Promise<TodoListResult> =>
      serialized(async () => {
        const current = await load();
        const next = applyTodoWrite(current, args.todos, Math.max(nextNumber, highestTodoNumber(current) + 1));
        nextNumber = next.nextNumber;
        if (!sameTodos(current, next.list)) {
          await store.set(copyTodos(next.list));
          await options.onChange?.(copyTodos(next.list));
        }
        return { todos: next.list, counts: countTodos(next.list) };
      }),
  });

  const todoRead = defineTool({
    name: 'todo_read',
    displayName: 'Read plan',
    description: 'Read the current todo list and its counts (pending, in_progress, completed).',
    input: z.object({}),
    execute: (): Promise<TodoListResult> =>
      serialized(async () => {
        const list = await load();
        return { todos: list, counts: countTodos(list) };
      }),
  });

  return {
    tools: [todoWrite, todoRead],
    getTodos: () => serialized(load),
  };
}

function memoryStore(): TodoStore {
  let list: TodoItem[] = [];
  return {
    get: () => list,
    set: (next) => {
      list = next;
    },
  };
}
