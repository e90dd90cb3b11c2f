import { MemoryFileStore } from '@lousho/build-ai-agent';
import { IndexedDbStore } from '@lousho/build-ai-agent/indexeddb';
import { createDemoAgent, type DemoAgent, type DemoAgentOptions } from './demo-agent.js';
import { createTriageAgent, type TriageAgent, type TriageAgentOptions } from './triage/triage-flow.js';

/** The IndexedDB database the in-page demos keep their conversations in (one per site). */
export const IN_PAGE_DATABASE = 'lousho-demo';

/** Where the in-page demos remember the current session id (`sessionStorage`, one per tab). */
export const IN_PAGE_SESSION_KEY = 'lousho:session:in-page';

/** The IndexedDB database the in-page triage flow keeps its runs in (apart from the chat's). */
export const IN_PAGE_TRIAGE_DATABASE = 'lousho-demo-triage';

/** Where the in-page demos remember the triage flow's session id (`sessionStorage`, one per tab). */
export const IN_PAGE_TRIAGE_SESSION_KEY = 'lousho:triage:in-page';

/** A store in the site's IndexedDB, or none where the browser offers no IndexedDB (storage blocked). */
function siteStore(database: string): IndexedDbStore | undefined {
  try {
    return new IndexedDbStore(database);
  } catch {
    return undefined;
  }
}

/**
 * The demo agent for a page, with its sessions in the site's IndexedDB: a reload (or a mode switch)
 * finds the conversation and a pending approval where they were. Where the browser offers no
 * IndexedDB (storage blocked), `kept` is false and the chat lives in memory, as the UI then says.
 */
export function createInPageDemoAgent(options: Omit<DemoAgentOptions, 'store'> = {}): { agent: DemoAgent; kept: boolean } {
  const store = siteStore(IN_PAGE_DATABASE);
  // Attachments in the page's memory: a reload keeps the conversation, and shows earlier files as chips.
  return { agent: createDemoAgent({ files: new MemoryFileStore(), ...options, ...(store ? { store } : {}) }), kept: store !== undefined };
}

/**
 * The triage flow for a page, checkpointed in its own IndexedDB database like the in-page chat: a
 * reload, a switch to the chat and back, or to the server and back finds the run and the reply
 * waiting for review where they were. Without IndexedDB, `kept` is false and the run lives in memory.
 */
export function createInPageTriageAgent(options: Omit<TriageAgentOptions, 'store'> = {}): { agent: TriageAgent; kept: boolean } {
  const store = siteStore(IN_PAGE_TRIAGE_DATABASE);
  return { agent: createTriageAgent({ ...options, ...(store ? { store } : {}) }), kept: store !== undefined };
}
