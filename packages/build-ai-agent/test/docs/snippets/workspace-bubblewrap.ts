import path from 'node:path';
import { BubblewrapSandbox, createFsTools, createShellTool, NodeWorkspace, SandboxShell } from '@lousho/build-ai-agent';

const root = path.resolve('project');
const sandbox = new BubblewrapSandbox({ root, limits: { cpuSeconds: 120, memoryBytes: 2 ** 31, processes: 256 } });
const tools = [...createFsTools(new NodeWorkspace({ root })), createShellTool(new SandboxShell(sandbox))];
// … createAgent({ tools, sandbox, … }); when done: await sandbox.dispose();

export { sandbox, tools };
