import type { UnsequencedStreamEvent } from '@lousho/protocol';
import type { AgentHook, PermissionDecisionRecord, PermissionRule } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import type { GenerateOptions, LLMProvider, StreamChunk } from '@lousho/protocol';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { UsageTracker, emptyUsage } from '../../../src/usage/tracker.js';
import type { LoopDeps } from '../../../src/agent/loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';
import type { CallScope } from '../../../src/agent/tool-call.js';

/** A provider that streams the given chunks (the stage tests call the model stage directly). */
export function scriptedProvider(chunks: StreamChunk[] | ((options: GenerateOptions) => AsyncIterable<StreamChunk>)): LLMProvider {
  return {
    name: 'scripted',
    defaultModel: 'scripted-1',
    stream: typeof chunks === 'function' ? chunks : async function* () {
      for (const chunk of chunks) yield chunk;
    },
  };
}

export interface StageFixture {
  scope: CallScope;
  deps: LoopDeps;
  snapshot: RunSnapshot;
  /** Stream events the stages emitted, in order. */
  events: UnsequencedStreamEvent[];
  /** `onPermissionDecision` calls, in order. */
  decisions: PermissionDecisionRecord[];
  checkpoints: number;
}

/** One run's loop deps, snapshot and call scope, with everything a stage reports recorded. */
export function stageFixture(options: Partial<Omit<LoopDeps, 'tools'>> & { tools?: ConstructorParameters<typeof ToolRegistry>[0]; messages?: Message[] } = {}): StageFixture {
  const { tools, messages, ...rest } = options;
  const fixture = { events: [], decisions: [], checkpoints: 0 } as unknown as StageFixture;
  const deps: LoopDeps = {
    provider: scriptedProvider([]),
    tools: new ToolRegistry(tools ?? []),
    toolSpecs: [],
    maxSteps: 10,
    toolConcurrency: Infinity,
    hooks: [] as AgentHook[],
    permissions: [] as PermissionRule[],
    emit: (event) => void fixture.events.push(event),
    onPermissionDecision: (decision) => void fixture.decisions.push(decision),
    checkpoint: () => void fixture.checkpoints++,
    ...rest,
  };
  const transcript = messages ?? [{ role: 'user', content: 'hi' }];
  const snapshot: RunSnapshot = {
    runId: 'run_1',
    sessionId: 'sess_1',
    model: 'scripted-1',
    configContext: { input: [] },
    messages: transcript.slice(),
    runStart: 0,
    steps: 1,
    usage: emptyUsage(),
    stepUsage: [],
    toolCalls: [],
  };
  fixture.deps = deps;
  fixture.snapshot = snapshot;
  fixture.scope = { deps, snapshot, usage: new UsageTracker(), step: 1, visibleLength: transcript.length, legStart: Date.now() };
  return fixture;
}
