import { createDemoAgent, type DemoAgent } from '@lousho/demo-agent';

/** The demo server's agent route (proxied to the demo server by `vite dev`). */
export const AGENT_URL = '/api/agent';

let pageAgent: DemoAgent | undefined;

/** The demo agent running in this page: made once, so switching modes back and forth keeps it. */
export function inPageSource(): { agent: DemoAgent } {
  pageAgent ??= createDemoAgent();
  return { agent: pageAgent };
}

/** The agent on the demo server; the session id is kept in sessionStorage so a reload restores the chat. */
export function httpSource(): { url: string; storage: Storage } {
  return { url: AGENT_URL, storage: window.sessionStorage };
}
