import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTodoWrite, type TodoItem, type TodoStatus } from '../src/todo-list.js';
import { createTodoTools, type TodoStore } from '../src/todo-tools.js';
import { expectResult, expectToolError } from './helpers.js';

describe('todo tools', () => {
  it('gives todo_write and todo_read, in that order', () => {
    const { tools } = createTodoTools();
    expect(tools.map((tool) => tool.name)).toEqual(['todo_write', 'todo_read']);
  });

  it('assigns todo_1, todo_2, ... and returns the list with counts', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    const result = await expectResult(write, {
      todos: [
        { content: 'Read the code', status: 'completed' },
        { content: 'Write the migration', status: 'in_progress' },
        { content: 'Run the tests', status: 'pending' },
      ],
    });
    expect(result.todos).toEqual([
      { id: 'todo_1', content: 'Read the code', status: 'completed' },
      { id: 'todo_2', content: 'Write the migration', status: 'in_progress' },
      { id: 'todo_3', content: 'Run the tests', status: 'pending' },
    ]);
    expect(result.counts).toEqual({ total: 3, pending: 1, in_progress: 1, completed: 1 });
    expect(await todos.getTodos()).toEqual(result.todos);
  });

  it('keeps ids stable when a later write repeats content without ids, and numbers new items after them', async () => {
    const todos = createTodoTools();
    const [write, read] = todos.tools;
    await expectResult(write, {
      todos: [
        { content: 'Read the code', status: 'in_progress' },
        { content: 'Run the tests', status: 'pending' },
      ],
    });
    const second = await expectResult(write, {
      todos: [
        { content: 'Run the tests', status: 'in_progress' },
        { content: 'Write docs', status: 'pending' },
        { content: 'read the code ', status: 'completed' },
      ],
    });
    expect(second.todos).toEqual([
      { id: 'todo_2', content: 'Run the tests', status: 'in_progress' },
      { id: 'todo_3', content: 'Write docs', status: 'pending' },
      { id: 'todo_1', content: 'read the code', status: 'completed' },
    ]);
    const readBack = await expectResult(read, {});
    expect(readBack).toEqual(second);
  });

  it('keeps an id the model passes back, also when it renames the item', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    await expectResult(write, { todos: [{ content: 'Draft', status: 'pending' }] });
    const result = await expectResult(write, { todos: [{ id: 'todo_1', content: 'Draft the summary', status: 'in_progress' }] });
    expect(result.todos).toEqual([{ id: 'todo_1', content: 'Draft the summary', status: 'in_progress' }]);
  });

  it('does not hand out the id of a removed item again', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    await expectResult(write, {
      todos: [
        { content: 'A', status: 'pending' },
        { content: 'B', status: 'pending' },
      ],
    });
    await expectResult(write, { todos: [{ content: 'A', status: 'pending' }] });
    const result = await expectResult(write, {
      todos: [
        { content: 'A', status: 'pending' },
        { content: 'C', status: 'pending' },
      ],
    });
    expect(result.todos.map((item) => item.id)).toEqual(['todo_1', 'todo_3']);
  });

  it('refuses two in_progress items with an error the model can act on, and keeps the old list', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    await expectResult(write, { todos: [{ content: 'A', status: 'in_progress' }] });
    const error = await expectToolError(write, {
      todos: [
        { content: 'A', status: 'in_progress' },
        { content: 'B', status: 'in_progress' },
      ],
    });
    expect(error).toMatchObject({ error: 'TodoListError', toolName: 'todo_write', kind: 'execution' });
    expect(error.message).toMatch(/Only one todo may be in_progress.*'A', 'B'/);
    expect(await todos.getTodos()).toEqual([{ id: 'todo_1', content: 'A', status: 'in_progress' }]);
  });

  it('refuses repeated ids, empty content and unknown statuses', async () => {
    const [write] = createTodoTools().tools;
    const duplicate = await expectToolError(write, {
      todos: [
        { id: 'x', content: 'A', status: 'pending' },
        { id: 'x', content: 'B', status: 'pending' },
      ],
    });
    expect(duplicate.message).toMatch(/'x' is used by more than one todo/);
    const empty = await expectToolError(write, { todos: [{ content: '   ', status: 'pending' }] });
    expect(empty).toMatchObject({ kind: 'validation' });
    expect(empty.issues?.[0]?.path).toBe('todos[0].content');
    const status = await expectToolError(write, { todos: [{ content: 'A', status: 'done' }] });
    expect(status.issues?.[0]?.path).toBe('todos[0].status');
  });

  it('accepts an empty list (a finished plan can be cleared)', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    await expectResult(write, { todos: [{ content: 'A', status: 'pending' }] });
    const result = await expectResult(write, { todos: [] });
    expect(result).toEqual({ todos: [], counts: { total: 0, pending: 0, in_progress: 0, completed: 0 } });
  });

  it('reads and writes through a custom store, sync or async', async () => {
    let saved: TodoItem[] = [{ id: 'todo_7', content: 'From last session', status: 'pending' }];
    const asyncStore: TodoStore = {
      get: async () => saved,
      set: async (next) => {
        saved = next;
      },
    };
    const todos = createTodoTools({ store: asyncStore });
    const [write, read] = todos.tools;
    expect((await expectResult(read, {})).todos).toEqual(saved);
    const result = await expectResult(write, {
      todos: [
        { content: 'From last session', status: 'completed' },
        { content: 'New step', status: 'pending' },
      ],
    });
    expect(result.todos).toEqual([
      { id: 'todo_7', content: 'From last session', status: 'completed' },
      { id: 'todo_8', content: 'New step', status: 'pending' },
    ]);
    expect(saved).toEqual(result.todos);
  });

  it('gives each createTodoTools() call its own list', async () => {
    const first = createTodoTools();
    const second = createTodoTools();
    await expectResult(first.tools[0], { todos: [{ content: 'A', status: 'pending' }] });
    expect(await second.getTodos()).toEqual([]);
  });

  it('calls onChange with the new list when a write changes it, not for an identical rewrite', async () => {
    const changes: TodoItem[][] = [];
    const todos = createTodoTools({ onChange: (list) => void changes.push(list) });
    const [write] = todos.tools;
    await expectResult(write, { todos: [{ content: 'A', status: 'pending' }] });
    await expectResult(write, { todos: [{ content: 'A', status: 'pending' }] });
    await expectResult(write, { todos: [{ content: 'A', status: 'completed' }] });
    expect(changes).toEqual([
      [{ id: 'todo_1', content: 'A', status: 'pending' }],
      [{ id: 'todo_1', content: 'A', status: 'completed' }],
    ]);
  });

  it('hands out copies: changing a returned list does not change the stored one', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    const result = await expectResult(write, { todos: [{ content: 'A', status: 'pending' }] });
    result.todos[0]!.status = 'completed';
    (await todos.getTodos())[0]!.content = 'changed';
    expect(await todos.getTodos()).toEqual([{ id: 'todo_1', content: 'A', status: 'pending' }]);
  });

  it('applies parallel writes one after the other', async () => {
    const todos = createTodoTools();
    const [write] = todos.tools;
    await Promise.all([
      expectResult(write, { todos: [{ content: 'A', status: 'pending' }] }),
      expectResult(write, {
        todos: [
          { content: 'A', status: 'pending' },
          { content: 'B', status: 'pending' },
        ],
      }),
    ]);
    expect(await todos.getTodos()).toEqual([
      { id: 'todo_1', content: 'A', status: 'pending' },
      { id: 'todo_2', content: 'B', status: 'pending' },
    ]);
  });
});

describe('todo list rules (property)', () => {
  const status = fc.constantFrom<TodoStatus>('pending', 'in_progress', 'completed');
  const content = fc.constantFrom('Plan', 'Build', 'Test', 'Ship', 'Document', 'Review');
  const draft = fc.record({ content, status });
  const writes = fc.array(fc.array(draft, { maxLength: 6 }), { minLength: 1, maxLength: 8 });

  it('ids stay unique, new ids are never reused, repeated content keeps its id, and at most one item is in_progress', () => {
    fc.assert(
      fc.property(writes, (sequence) => {
        let list: TodoItem[] = [];
        let next = 1;
        const everIssued = new Set<string>();
        for (const drafts of sequence) {
          const inProgress = drafts.filter((item) => item.status === 'in_progress').length;
          let outcome: ReturnType<typeof applyTodoWrite>;
          try {
            outcome = applyTodoWrite(list, drafts, next);
          } catch {
            expect(inProgress).toBeGreaterThan(1);
            continue;
          }
          expect(inProgress).toBeLessThanOrEqual(1);
          const ids = outcome.list.map((item) => item.id);
          expect(new Set(ids).size).toBe(ids.length);
          for (const item of outcome.list) {
            const before = list.find((old) => old.content.toLowerCase() === item.content.toLowerCase());
            const sameContentBefore = list.filter((old) => old.content === item.content).length;
            const sameContentNow = outcome.list.filter((other) => other.content === item.content).length;
            // With one item of that content before and after, the id carries over.
            if (before && sameContentBefore === 1 && sameContentNow === 1) expect(item.id).toBe(before.id);
            if (!list.some((old) => old.id === item.id)) {
              expect(everIssued.has(item.id)).toBe(false);
              everIssued.add(item.id);
            }
          }
          list = outcome.list;
          next = outcome.nextNumber;
        }
      }),
      { numRuns: 500 },
    );
  });
});
