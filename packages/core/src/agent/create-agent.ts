import type { AskQuestionTool } from '../tools/builtin/ask-question.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { AgentRuns } from './agent-runs.js';
import { setUpAgent } from './agent-setup.js';
import { agentStores } from './agent-stores.js';
import { newId } from './ids.js';
import { setDelegationHandle } from './subagents/handle.js';
import { SessionAwaitingApprovalError } from './session-errors.js';
import { SessionRegistry } from './session-registry.js';
import type { CreateAgentConfig } from './types.js';
import type { AgentRun, RunOptions, Agent, AgentApprovals, AgentSession } from '@lousho/protocol';
import type { AgentInput } from '@lousho/protocol';
import { checkRunOptions } from './option-keys.js';

/** `C` with every key `T` does not have mapped to `never`, so a misspelt option is a type error. */
export type KnownKeysOnly<C, T> = C & { readonly [K in Exclude<keyof C, keyof T>]: never };

export { SessionAwaitingApprovalError };

type OutputOf<C> = C extends { output: infer S extends StandardSchemaV1 } ? StandardSchemaV1.InferOutput<S> : unknown;

/** The tools a config gives the agent, as a union of their types (for typed UI tool parts). */
type ToolListOf<T> = T extends readonly (infer E)[] ? E : T extends Readonly<Record<string, infer E>> ? E : never;
type ToolsOfConfig<C> = (C extends { tools: infer T }
  ? ToolListOf<T extends (...args: any[]) => infer R ? Awaited<R> : T>
  : never) | (C extends { askQuestion: true } ? AskQuestionTool : never);

/** Creates an agent: `send()` / `stream()` runs, sessions, and approvals. */
export function createAgent<const C extends CreateAgentConfig<any>>(config: KnownKeysOnly<C, CreateAgentConfig<any>>): Agent<OutputOf<C>, ToolsOfConfig<C>> {
  type Out = OutputOf<C>;
  // Resolve config (the agent's part: checked once, now) → stores → sessions → runs.
  const setup = setUpAgent(config);
  const stores = agentStores(setup.config);
  const registry = new SessionRegistry(stores);
  const runs = new AgentRuns(setup, stores, registry);
  const approvals = runs.approvals() as AgentApprovals<Out>;
  registry.listenForStops();
  const turn = (input: AgentInput, options: RunOptions, useApprove: boolean) => runs.startTurn(input, options, useApprove) as AgentRun<Out>;

  const agent: Agent<Out, ToolsOfConfig<C>> = {
    ...(setup.config.name !== undefined ? { name: setup.config.name } : {}),
    ...(setup.config.description !== undefined ? { description: setup.config.description } : {}),
    send(input, options = {}) {
      try {
        checkRunOptions('send()', options);
        return turn(input, options, true).result;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    stream(input, options = {}) {
      checkRunOptions('stream()', options);
      return turn(input, options, false);
    },
    session: (id = newId('sess')) => sessionOf<Out>(agent, registry, id),
    approvals,
    sessions: {
      ...registry.api(),
      enqueue: (id, input, options) => runs.queue.enqueue(id, input, options),
      unqueue: (id, queueId, options) => runs.queue.unqueue(id, queueId, options),
      queued: (id) => runs.queue.queued(id),
    },
    ...(stores.files ? { files: stores.files } : {}),
    async resume(sessionId, options = {}) {
      return ((await runs.resume(sessionId, options, true)) as AgentRun<Out>).result;
    },
    resumeStream(sessionId, options = {}) {
      return runs.resume(sessionId, options, false) as Promise<AgentRun<Out>>;
    },
    async close() {
      await setup.mcp?.close();
    },
  };
  // Another agent's run may run this one as its sub-agent (a nested run, see subagents/run-child.ts).
  setDelegationHandle(agent, {
    async setup(ctx, fixedModel) {
      const resolved = await setup.resolve(ctx, fixedModel);
      return {
        model: fixedModel ?? resolved.model,
        deps: setup.deps(resolved, false),
        ...(setup.config.traceExporter ? { traceExporter: setup.config.traceExporter } : {}),
        ...(setup.config.description ? { description: setup.config.description } : {}),
      };
    },
  });
  return agent;
}

/** `agent.session(id)`: `send` / `stream` with the session's id. */
function sessionOf<Out>(agent: Agent<Out, unknown>, registry: SessionRegistry, id: string): AgentSession<Out> {
  return {
    id,
    get messages() {
      return registry.sessions.get(id)?.messages ?? [];
    },
    send: (input, options = {}) => {
      try {
        checkRunOptions('session.send()', options, true);
      } catch (error) {
        return Promise.reject(error);
      }
      return agent.send(input, { ...options, sessionId: id });
    },
    stream: (input, options = {}) => {
      checkRunOptions('session.stream()', options, true);
      return agent.stream(input, { ...options, sessionId: id });
    },
  };
}
