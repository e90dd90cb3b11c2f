import { HttpAgent, type BaseEvent, type Interrupt, type ResumeEntry } from '@ag-ui/client';

export interface RunRecord {
  events: BaseEvent[];
  types: string[];
  outcome: 'success' | 'interrupt' | 'cancelled' | 'error' | undefined;
  interrupts: Interrupt[];
  error?: Error;
}

/** `@ag-ui/client`'s HttpAgent, as an app would hold it: one per thread. */
export function agUiClient(url: string, threadId = `thread-${Math.random().toString(36).slice(2)}`, headers?: Record<string, string>): HttpAgent {
  return new HttpAgent({ url, threadId, ...(headers && { headers }) });
}

/** Adds a user message and runs the agent (or resumes it), recording every event the client applied. */
export async function run(agent: HttpAgent, input?: string, resume?: ResumeEntry[], seen?: BaseEvent[]): Promise<RunRecord> {
  if (input !== undefined) agent.addMessage({ id: `user-${Math.random().toString(36).slice(2)}`, role: 'user', content: input });
  const record: RunRecord = { events: [], types: [], outcome: undefined, interrupts: [] };
  try {
    await agent.runAgent(resume ? { resume } : {}, {
      onEvent: ({ event }) => {
        record.events.push(event);
        seen?.push(event);
        record.types.push(event.type);
      },
      onRunFinishedEvent: (params) => {
        record.outcome = params.outcome;
        if (params.outcome === 'interrupt') record.interrupts = params.interrupts;
      },
      onRunErrorEvent: () => {
        record.outcome = 'error';
      },
    });
  } catch (error) {
    record.error = error as Error;
    record.outcome ??= 'error';
  }
  return record;
}

/** The text of the last assistant message the client holds. */
export function lastAssistantText(agent: HttpAgent): string {
  const message = [...agent.messages].reverse().find((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '');
  return (message?.content as string | undefined) ?? '';
}
