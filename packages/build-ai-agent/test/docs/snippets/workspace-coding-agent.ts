import { createAgent, createCommandGuardrail, createFsTools, createShellTool, MemoryWorkspace } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';

const workspace = new MemoryWorkspace({
  files: { 'src/greet.js': 'export const greet = (name) => `Helo, ${name}!`;\n' },
  exec: { 'npm test': { exitCode: 0, stdout: '1 test passed\n' } },
});

export const agent = createAgent({
  provider: mockModel([
    { toolCalls: [{ name: 'edit_file', args: { path: 'src/greet.js', old_string: 'Helo,', new_string: 'Hello,' } }] },
    { toolCalls: [{ name: 'shell', args: { command: 'npm test' } }] },
    'Fixed the typo; the tests pass.',
  ]),
  instructions: 'You maintain this project. Run the tests after every change.',
  tools: [...createFsTools(workspace), createShellTool(workspace)],
  guardrails: { tool: [createCommandGuardrail({ deny: ['rm -rf /', 'git push --force'] })] },
});

export const result = await agent.send('Fix the greeting and run the tests.');
export { workspace };
