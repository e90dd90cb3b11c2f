import { createAgentClient, type AgentClient, type AgentUIState } from '@lousho/client';
import type { BindingDriver, BindingOptions, ConformanceSource, MountedBinding } from './driver.js';

/**
 * The suite's reference driver: the framework-neutral client itself, read through `subscribe()`
 * the way a binding reads it. It checks the suite against core, and is the template for a
 * framework's driver (see README.md).
 */
export const clientDriver: BindingDriver = {
  supportsSourceChange: true,
  async mount(source: ConformanceSource, options: BindingOptions): Promise<MountedBinding> {
    let client!: AgentClient;
    let state!: AgentUIState;
    let unsubscribe = (): void => {};
    const attach = (next: ConformanceSource): void => {
      client = createAgentClient(next, options);
      state = client.getSnapshot();
      unsubscribe = client.subscribe((latest) => (state = latest));
    };
    attach(source);
    return {
      state: () => ({
        messages: state.messages,
        status: state.status,
        pendingApproval: state.pendingApproval,
        error: state.error,
        usage: state.usage,
        finishReason: state.finishReason,
        guardrail: state.guardrail,
        queued: state.queued,
        sessionId: client.sessionId,
      }),
      send: (input, options) => client.send(input, options),
      unqueue: (id) => client.unqueue(id),
      stop: () => client.stop(),
      resume: () => client.resume(),
      approve: (note) => client.approve(note),
      reject: (note) => client.reject(note),
      answer: (text) => client.answer(text),
      submitToolResult: (toolCallId, result, more) => client.submitToolResult(toolCallId, result, more),
      upload: (file, name) => client.upload(file, name),
      reset: () => client.reset(),
      setSource(next) {
        unsubscribe();
        client.destroy();
        attach(next);
      },
      unmount: () => unsubscribe(),
    };
  },
};
