import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '@lousho/build-ai-agent';

const here = dirname(fileURLToPath(import.meta.url));
/** apps/demo-server: where `tsx` resolves from for the child process. */
const DEMO_SERVER_DIR = resolve(here, '..');
export const NOTES_SERVER_FILE = resolve(here, 'notes-mcp-server.ts');

/**
 * The demo's MCP notes server as a stdio server config: Node runs the TypeScript source through
 * tsx, like the demo server itself. `notesFile` keeps the notes across restarts.
 */
export function notesServerConfig(notesFile?: string): McpStdioServerConfig {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', NOTES_SERVER_FILE],
    cwd: DEMO_SERVER_DIR,
    ...(notesFile ? { env: { NOTES_FILE: notesFile } } : {}),
  };
}
