import { createCommandGuardrail, createFsTools, createShellTool, type FsProvider, type Guardrail, type MemoryWorkspace, type ShellProvider } from '@lousho/build-ai-agent';
import { createDemoWorkspace } from './project.js';

/**
 * Where the coding tools work: the files, the shell, and a sentence that says plainly what they
 * are (a real copy in a sandbox, or the in-memory project with scripted commands).
 */
export interface DemoCoding<W extends FsProvider = FsProvider> {
  fs: W;
  shell: ShellProvider;
  /** `'bubblewrap'`: commands really run, confined to the project; `'none'`: nothing runs, commands are scripted. */
  sandbox: 'bubblewrap' | 'none';
  /** What the coding tools are, in a sentence for the server's banner and the agent's instructions. */
  note: string;
}

/** The default: a fresh in-memory copy of the demo project, whose commands (`npm test`, `ls`) are scripted. Runs anywhere. */
export function inMemoryCoding(note = 'Coding tools: an in-memory copy of the demo project; `npm test` and `ls` are simulated, nothing runs.'): DemoCoding<MemoryWorkspace> {
  const workspace = createDemoWorkspace();
  return { fs: workspace, shell: workspace, sandbox: 'none', note };
}

/**
 * The coding tools of the demo agent over `coding` (default: the in-memory project): `read_file`,
 * `edit_file`, `list_dir` and `shell`.
 */
export function createCodingTools<W extends FsProvider = MemoryWorkspace>(coding?: DemoCoding<W>) {
  const chosen = (coding ?? inMemoryCoding()) as DemoCoding<W>;
  const [readFile, , editFile, listDir] = createFsTools(chosen.fs);
  return { workspace: chosen.fs, coding: chosen, tools: [readFile, editFile, listDir, createShellTool(chosen.shell)] as const };
}

/**
 * The demo's command guardrail: a shell command that deletes recursively from the root, or touches
 * the disk or the machine's power, ends the run (`finishReason: 'guardrail'`), however it is spelled.
 */
export const demoCommandGuardrail: Guardrail = createCommandGuardrail({
  deny: ['rm -rf /', 'mkfs', 'dd of=/dev/*', 'shutdown', 'reboot'],
});
