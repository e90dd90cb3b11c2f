/** The tool names the demo model calls; the demo tools are defined under these names. */
export const DEMO_TOOL_NAMES = {
  weather: 'get_weather',
  research: 'research_topic',
  email: 'send_email',
  question: 'ask_question',
} as const;

export type DemoToolName = (typeof DEMO_TOOL_NAMES)[keyof typeof DEMO_TOOL_NAMES];
