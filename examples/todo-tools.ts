// lousho-api-overview.md › "Todo tools": an agent plans and tracks multi-step work.
// Run: npx tsx todo-tools.ts (offline: a scripted model writes a plan, then completes it).
import { createAgent, createTodoTools, type TodoStore } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';

// What the snippet leaves to you: a model. This one plans two steps, works, then reports.
const provider = mockModel([
  { toolCalls: [{ name: 'todo_write', args: { todos: [{ content: 'Rename files to .mjs', status: 'in_progress' }, { content: 'Update imports', status: 'pending' }] } }] },
  { toolCalls: [{ name: 'todo_write', args: { todos: [{ content: 'Rename files to .mjs', status: 'completed' }, { content: 'Update imports', status: 'completed' }] } }] },
  'Migrated.',
]);

const todos = createTodoTools({ onChange: (list) => console.log(list.length, 'todos') });
const planner = createAgent({ prompt: 'Plan multi-step work, then do it.', provider, tools: todos.tools });

await planner.send('Migrate the repo to ESM');
console.log(await todos.getTodos()); // [{ id: 'todo_1', content: '...', status: 'completed' }, ...]

// Persist the list somewhere else:
let saved: Awaited<ReturnType<TodoStore['get']>> = [];
const persisted = createTodoTools({ store: { get: () => saved, set: (next) => void (saved = next) } });
const writer = createAgent({
  prompt: 'Plan multi-step work, then do it.',
  provider: mockModel([{ toolCalls: [{ name: 'todo_write', args: { todos: [{ content: 'Ship it', status: 'pending' }] } }] }, 'Planned.']),
  tools: persisted.tools,
});
await writer.send('Plan the release');
console.log(`saved in my store: ${JSON.stringify(saved)}`);
