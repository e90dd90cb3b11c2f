import { createInPageDemoAgent, createInPageTriageAgent, type DemoAgent, type TriageAgent } from '@lousho/demo-agent';

/** The demo server's agent route (proxied to the demo server by `vite dev`). */
export const AGENT_URL = '/api/agent';

let page: { agent: DemoAgent; kept: boolean } | undefined;

/**
 * The demo agent running in this page: made once, so switching modes back and forth keeps it, with
 * its sessions in IndexedDB, so a reload keeps the chat (and a pending approval) too.
 */
export function inPageSource(): { agent: DemoAgent } {
  page ??= createInPageDemoAgent();
  return { agent: page.agent };
}

/** Whether the in-page chat outlives a reload (false when the browser blocks site storage). */
export const inPageChatKept = (): boolean => page?.kept ?? false;

/** The agent on the demo server; the session id is kept in sessionStorage so a reload restores the chat. */
export function httpSource(): { url: string; storage: Storage } {
  return { url: AGENT_URL, storage: window.sessionStorage };
}

/** The triage flow's route on the demo server. */
export const TRIAGE_URL = '/api/triage';

let pageTriage: { agent: TriageAgent; kept: boolean } | undefined;

/**
 * The triage flow running in this page (served like an agent, in process): made once, with its runs
 * in IndexedDB, so a reload, a switch to the chat or a mode switch finds a pending review again.
 */
export function triageInPageSource(): { agent: TriageAgent } {
  pageTriage ??= createInPageTriageAgent();
  return { agent: pageTriage.agent };
}

/** The triage flow on the demo server; its session is kept apart from the chat's. */
export function triageHttpSource(): { url: string; storage: Storage; storageKey: string } {
  return { url: TRIAGE_URL, storage: window.sessionStorage, storageKey: 'lousho:triage' };
}
