import type { AgentInput, AgentSessions, ApprovalRequest, ResumeOptions, RunOptions } from '@lousho/core';
import type { Flow } from './flow.js';
import { FlowHost, type FlowHostOptions } from './host/flow-host.js';
import type { FlowResult, FlowRun } from './types.js';

/**
 * Options of `createFlowAgent()`: the store (checkpoints, approvals, event log; default in memory),
 * node `concurrency`, the `reply` text a finished run gives, and how an agent's `input` becomes the flow's.
 */
export type FlowAgentOptions<I, O> = FlowHostOptions<I, O>;

/**
 * A flow with an agent's face: what `createAgentHandler()`, `createAgentClient()` and the UI
 * bindings (`useLoushoAgent`, the Vue composable, the Svelte store) take. A message starts a run
 * (its text becomes the flow's input, or what `input` makes of it), the run streams the agent
 * protocol's events plus `flow.*`, and approval nodes are decided like an agent's approvals.
 */
export interface FlowAgent<I = unknown, O = Record<string, unknown>> {
  readonly name: string;
  readonly flow: Flow<I, O>;
  /**
   * Starts a run from an agent's input (a message: `options.input` turns it into the flow's input,
   * else it is passed as it is) and streams its events; `result` settles when the run ends or pauses.
   */
  stream(input: AgentInput, options?: RunOptions): FlowRun<O>;
  /** Like `stream()`, resolving with the run's result (rejecting when the flow fails). */
  send(input: AgentInput, options?: RunOptions): Promise<FlowResult<O>>;
  /** Runs the flow on its own input type (not an agent's input). */
  run(input: I, options?: Omit<RunOptions, 'metadata'>): FlowRun<O>;
  readonly approvals: {
    /** The approval nodes waiting for a decision (of one session, with `sessionId`). */
    list(filter?: { sessionId?: string }): Promise<ApprovalRequest[]>;
    /** Approves or rejects a waiting approval node; resolves with the result of the run going on from it. */
    resolve(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<FlowResult<O>>;
    /** Like `resolve()`, as the stream of the run going on (what the HTTP handler sends back). */
    resolveStream(decision: { id: string; approved: boolean; note?: string }, options?: { signal?: AbortSignal }): Promise<FlowRun<O>>;
    /** Flows ask yes/no questions only: always rejects with `LOUSHO_APPROVAL_KIND_MISMATCH` (or not found / not pending). */
    answer(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<FlowResult<O>>;
    /** Like `answer()`: always rejects, with `LOUSHO_APPROVAL_KIND_MISMATCH` (flows ask yes/no questions only). */
    answerStream(decision: { id: string; answer: string }, options?: { signal?: AbortSignal }): Promise<FlowRun<O>>;
  };
  readonly sessions: AgentSessions;
  /**
   * Goes on with a run a crash interrupted, taking the session over (with `force: false`, only a
   * run whose lease ran out: `LOUSHO_SESSION_BUSY` while another process holds it).
   */
  resume(sessionId: string, options?: ResumeOptions): Promise<FlowResult<O>>;
  /** Like `resume()`, as the resumed leg's stream (what `POST /sessions/:id/resume` sends). */
  resumeStream(sessionId: string, options?: ResumeOptions): Promise<FlowRun<O>>;
}

/** Serves a flow the way an agent is served (HTTP handler, in-process UI clients). */
export function createFlowAgent<I, O>(flow: Flow<I, O>, options: FlowAgentOptions<I, O> = {}): FlowAgent<I, O> {
  const host = new FlowHost(flow, options);
  const toInput = (input: AgentInput, metadata: Record<string, unknown> | undefined): I =>
    options.input ? options.input(input, metadata !== undefined ? { metadata } : {}) : (input as I);
  const decide = (id: string, decision: Parameters<FlowHost<I, O>['decide']>[1], signal?: AbortSignal) =>
    host.decide(id, decision, signal ? { signal } : {});
  const sessions: AgentSessions = {
    get: (id) => host.get(id),
    eventsAfter: (id, afterSeq) => host.eventsAfter(id, afterSeq),
    subscribe: (id, listener) => host.subscribe(id, listener),
    stop: (id) => host.stop(id),
    // Flows follow their runs in this process (the store's cross-process signals are not used).
    requestStop: async (id) => host.stop(id),
    load: (id) => host.load(id),
    create: (id, opts = {}) => host.createSession(id, opts.owner),
  };
  const agent: FlowAgent<I, O> = {
    name: flow.name,
    flow,
    stream(input, runOptions = {}) {
      return host.start(toInput(input, runOptions.metadata), runOptions, 'turn', input);
    },
    send(input, runOptions = {}) {
      try {
        return agent.stream(input, runOptions).result;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    run(input, runOptions = {}) {
      return host.start(input, runOptions, 'turn');
    },
    approvals: {
      list: (filter = {}) => host.listApprovals(filter),
      resolve: async (d, o = {}) => (await decide(d?.id, { kind: 'tool', approved: d?.approved === true, ...(d?.note !== undefined ? { note: d.note } : {}) }, o.signal)).result,
      resolveStream: (d, o = {}) => decide(d?.id, { kind: 'tool', approved: d?.approved === true, ...(d?.note !== undefined ? { note: d.note } : {}) }, o.signal),
      answer: async (d, o = {}) => (await decide(d?.id, { kind: 'question', answer: d?.answer }, o.signal)).result,
      answerStream: (d, o = {}) => decide(d?.id, { kind: 'question', answer: d?.answer }, o.signal),
    },
    sessions,
    async resume(sessionId, resumeOptions = {}) {
      return (await agent.resumeStream(sessionId, resumeOptions)).result;
    },
    async resumeStream(sessionId, resumeOptions = {}) {
      await host.load(sessionId);
      return host.start(undefined, { sessionId, ...resumeOptions }, 'resume');
    },
  };
  return agent;
}
