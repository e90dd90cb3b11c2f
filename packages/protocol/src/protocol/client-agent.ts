import type { AgentApprovals, AgentSessions, ResumeOptions, RunOptions } from '../contracts/agent-session.js';
import type { AgentStreamEvent } from '../contracts/events.js';
import type { AgentInput } from '../messages.js';
import type { FileStore } from '../contracts/files.js';

/**
 * What the in-process client and the HTTP handler use of an agent: any `createAgent()` agent, or
 * anything that streams the same events (e.g. a flow served with `createFlowAgent()`).
 */
export interface ClientAgent {
  /** Starts a run (a turn) and streams its events (`agent.stream()`). */
  stream(input: AgentInput, options?: RunOptions): AsyncIterable<AgentStreamEvent>;
  /** Goes on with a session's interrupted run and streams it (`agent.resumeStream()`). */
  resumeStream(sessionId: string, options?: ResumeOptions): Promise<AsyncIterable<AgentStreamEvent>>;
  readonly approvals: Pick<AgentApprovals, 'list'> & {
    /** Decides a yes/no approval and streams the run going on. */
    resolveStream(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<AsyncIterable<AgentStreamEvent>>;
    /** Answers a question approval and streams the run going on. */
    answerStream(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<AsyncIterable<AgentStreamEvent>>;
    /** Ends a browser tool's call with the page's result (or error) and streams the run going on. Agents without browser tools (flows) may lack it. */
    submitToolResultStream?(decision: { id: string; result?: unknown; error?: string; toolCallId?: string }, options?: { signal?: AbortSignal }): Promise<AsyncIterable<AgentStreamEvent>>;
  };
  readonly sessions: AgentSessions;
  /** Where uploads are kept (`POST /sessions/:id/files`); without it the handler answers 501. */
  readonly files?: FileStore;
}
