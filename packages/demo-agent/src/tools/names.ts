/** The tool names the demo model calls; the demo tools are defined under these names. */
export const DEMO_TOOL_NAMES = {
  weather: 'get_weather',
  research: 'research_topic',
  email: 'send_email',
  question: 'ask_question',
  /** A browser tool: the page answers it (tools/local-time.ts). */
  localTime: 'local_time',
} as const;

export type DemoToolName = (typeof DEMO_TOOL_NAMES)[keyof typeof DEMO_TOOL_NAMES];

/**
 * The notes tools of the demo's MCP server (apps/demo-server starts it as `notes`), as the agent
 * names them: `<server>__<tool>`. Only agents given that server have them.
 */
export const DEMO_NOTES_TOOL_NAMES = {
  add: 'notes__add_note',
  list: 'notes__list_notes',
  search: 'notes__search_notes',
} as const;

/** The coding tools (over the demo's in-memory project) the demo model calls. */
export const DEMO_CODING_TOOL_NAMES = {
  read: 'read_file',
  edit: 'edit_file',
  list: 'list_dir',
  shell: 'shell',
} as const;

/** The researcher sub-agent's own tool (it also has `research_topic`), and the lead's delegation tool. */
export const DEMO_RESEARCHER_TOOL_NAMES = {
  save: 'save_findings',
} as const;

/** The tool through which the lead delegates (made by `createAgent({ subagents })`), and the sub-agent it names. */
export const DEMO_TASK_TOOL = 'task';
export const DEMO_RESEARCHER_NAME = 'researcher';
