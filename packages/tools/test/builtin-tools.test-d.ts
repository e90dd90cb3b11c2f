import { describe, expectTypeOf, it } from 'vitest';
import { askQuestionTool, type ToolDescriptor, type ToolInput, type ToolOutput } from '@lousho/core';
import {
  createHttpTool,
  createTodoTools,
  currentDateTool,
  dayNameTool,
  httpTool,
  type HttpToolResult,
  type TodoItem,
  type TodoStore,
} from '../src/index.js';

describe('built-in tool types', () => {
  it('accepts the todo store snippet from the docs unchanged', () => {
    let saved: Awaited<ReturnType<TodoStore['get']>> = [];
    createTodoTools({ store: { get: () => saved, set: (next) => void (saved = next) } });
    expectTypeOf(saved).toEqualTypeOf<TodoItem[]>();
  });

  it('types the todo items, onChange and getTodos', () => {
    const todos = createTodoTools({ onChange: (list) => console.log(list.length, 'todos') });
    expectTypeOf(todos.getTodos()).resolves.toEqualTypeOf<TodoItem[]>();
    expectTypeOf<TodoItem['status']>().toEqualTypeOf<'pending' | 'in_progress' | 'completed'>();
    expectTypeOf(todos.tools[0].name).toEqualTypeOf<'todo_write'>();
    expectTypeOf<ToolOutput<(typeof todos.tools)[0]>>().toEqualTypeOf<{ todos: TodoItem[]; counts: { total: number; pending: number; in_progress: number; completed: number } }>();
  });

  it('every built-in is a ToolDescriptor, so they can be passed keyed by name', () => {
    const tools: Record<string, ToolDescriptor> = {
      current_date: currentDateTool,
      day_name: dayNameTool,
      http: httpTool,
      ask_question: askQuestionTool(),
    };
    const list: ToolDescriptor[] = createTodoTools().tools;
    void tools;
    void list;
  });

  it('carries argument and result types', () => {
    expectTypeOf<ToolInput<typeof currentDateTool>>().toEqualTypeOf<{ timezone?: string | undefined }>();
    expectTypeOf<ToolOutput<typeof createHttpTool>>().toBeNever();
    expectTypeOf<ToolOutput<typeof httpTool>>().toEqualTypeOf<HttpToolResult>();
    expectTypeOf<ToolInput<ReturnType<typeof askQuestionTool>>>().toEqualTypeOf<{ question: string; options?: string[] | undefined }>();
    expectTypeOf(currentDateTool.name).toEqualTypeOf<'current_date'>();
    expectTypeOf(dayNameTool.name).toEqualTypeOf<'day_name'>();
  });
});
