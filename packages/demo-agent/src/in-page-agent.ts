import { IndexedDbStore } from '@lousho/build-ai-agent/indexeddb';
import { createDemoAgent, type DemoAgent, type DemoAgentOptions } from './demo-agent.js';

/** The IndexedDB database the in-page demos keep their conversations in (one per site). */
export const IN_PAGE_DATABASE = 'lousho-demo';

/** Where the in-page demos remember the current session id (`sessionStorage`, one per tab). */
export const IN_PAGE_SESSION_KEY = 'lousho:session:in-page';

/**
 * The demo agent for a page, with its sessions in the site's IndexedDB: a reload (or a mode switch)
 * finds the conversation and a pending approval where they were. Where the browser offers no
 * IndexedDB (storage blocked), `kept` is false and the chat lives in memory, as the UI then says.
 */
export function createInPageDemoAgent(options: Omit<DemoAgentOptions, 'store'> = {}): { agent: DemoAgent; kept: boolean } {
  let store: IndexedDbStore | undefined;
  try {
    store = new IndexedDbStore(IN_PAGE_DATABASE);
  } catch {
    store = undefined;
  }
  return { agent: createDemoAgent({ ...options, ...(store ? { store } : {}) }), kept: store !== undefined };
}
