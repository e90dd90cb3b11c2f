import { browser } from '$app/environment';
import { createDemoAgent, createInPageDemoAgent, createInPageTriageAgent, createTriageAgent, type DemoAgent, type TriageAgent } from '@lousho/demo-agent';
import type { AgentUIState } from '@lousho/build-ai-agent';
import { SESSION_COOKIE, sessionCookieStorage } from './session-cookie.js';

/** The agent's routes in this app (src/routes/api/agent/[...path]/+server.ts). */
export const AGENT_URL = '/api/agent';

export type ChatSource = { agent: DemoAgent } | { url: string; sessionId?: string; storage: typeof sessionCookieStorage; storageKey: string };

let page: { agent: DemoAgent; kept: boolean } | undefined;

/**
 * The demo agent running in this page: made once in the browser, so switching modes back and
 * forth keeps it, with its sessions in IndexedDB, so a reload keeps the chat (and a pending
 * approval) too. On the server (rendering a `?mode=page` URL) a throwaway one per render: the store
 * never starts it there, and nothing is shared between requests.
 */
export function inPageSource(): { agent: DemoAgent } {
  if (!browser) return { agent: createDemoAgent() };
  page ??= createInPageDemoAgent();
  return { agent: page.agent };
}

/** Whether the in-page chat outlives a reload (false when the browser blocks site storage). */
export const inPageChatKept = (): boolean => page?.kept ?? false;

/** The agent on this app's server; the session id comes from the cookie, through the page's load. */
export function httpSource(session: { id: string; state?: AgentUIState } | null): ChatSource {
  return { url: AGENT_URL, storage: sessionCookieStorage, storageKey: SESSION_COOKIE, ...(session ? { sessionId: session.id } : {}) };
}

/** The triage flow's routes in this app (src/routes/api/triage/[...path]/+server.ts). */
export const TRIAGE_URL = '/api/triage';

export type TriageSource = { agent: TriageAgent } | { url: string; storage?: Storage; storageKey: string };

let pageTriage: { agent: TriageAgent; kept: boolean } | undefined;

/**
 * The triage flow running in this page (served like an agent, in process): made once in the
 * browser, with its runs in IndexedDB, so a reload, a switch to the chat or a mode switch finds a
 * pending review again; a throwaway one when rendered on the server.
 */
export function triageInPageSource(): { agent: TriageAgent } {
  if (!browser) return { agent: createTriageAgent() };
  pageTriage ??= createInPageTriageAgent();
  return { agent: pageTriage.agent };
}

/** The triage flow on this app's server; its session id is kept in sessionStorage (the browser restores it). */
export function triageHttpSource(): TriageSource {
  return { url: TRIAGE_URL, storageKey: 'lousho:triage', ...(browser ? { storage: window.sessionStorage } : {}) };
}
