import { createCommandGuardrail, createFsTools, createShellTool, type Guardrail } from '@lousho/build-ai-agent';
import { createDemoWorkspace } from './project.js';

/**
 * The coding tools of the demo agent, over a fresh in-memory copy of the demo project: `read_file`,
 * `edit_file`, `list_dir` and `shell` (the scripted commands `npm test` and `ls`).
 */
export function createCodingTools() {
  const workspace = createDemoWorkspace();
  const [readFile, , editFile, listDir] = createFsTools(workspace);
  return { workspace, tools: [readFile, editFile, listDir, createShellTool(workspace)] as const };
}

/**
 * The demo's command guardrail: a shell command that deletes recursively from the root, or touches
 * the disk or the machine's power, ends the run (`finishReason: 'guardrail'`), however it is spelled.
 */
export const demoCommandGuardrail: Guardrail = createCommandGuardrail({
  deny: ['rm -rf /', 'mkfs', 'dd of=/dev/*', 'shutdown', 'reboot'],
});
