/** The provider name and model id the demo model reports. */
export const DEMO_PROVIDER_NAME = 'demo';
export const DEMO_MODEL_ID = 'lousho-demo-offline';

/** One line for the UI: who is answering. */
export const DEMO_MODEL_NOTICE =
  'You are chatting with the offline demo model: no API key, no real AI. It picks tools from keywords, and its weather and research results are made up.';

export interface DemoSuggestion {
  /** Short text for a button or chip. */
  label: string;
  /** The message it sends. */
  prompt: string;
}

/**
 * Whether the demos offer `demoSuggestions`: they are written for the offline demo model (which
 * answers them by keyword), so not with a real model (`kind: 'real'`); while the model is not known yet, yes.
 */
export const offersDemoSuggestions = (model: { kind: 'demo' | 'real' } | null | undefined): boolean => model?.kind !== 'real';

/** Example prompts that show each feature of the demo. */
export const demoSuggestions: readonly DemoSuggestion[] = Object.freeze([
  { label: 'Weather', prompt: "What's the weather in Paris and Tokyo?" },
  { label: 'Research in depth (sub-agent)', prompt: 'Research solar power in depth' },
  { label: 'Send an email (needs approval)', prompt: "Send an email to alex@example.com about Friday's demo" },
  { label: 'Ask me a question', prompt: 'Help me plan a trip' },
  { label: 'Echo HTML (rendered safely?)', prompt: 'echo <img src=x onerror=alert(1)> <b>bold?</b>' },
  { label: 'Simulate an error', prompt: 'simulate error' },
  { label: 'Coding: delete everything (a guardrail blocks it)', prompt: 'Clean up the disk: delete everything' },
].map((s) => Object.freeze(s)));
