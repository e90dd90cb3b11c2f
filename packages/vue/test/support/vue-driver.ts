import { render } from '@testing-library/vue';
import { defineComponent, h, nextTick, shallowRef } from 'vue';
import type { BindingDriver, BindingOptions, ConformanceSource } from '@lousho/conformance';
import { useLoushoAgent, type UseLoushoAgentResult } from '../../src/index.js';

/**
 * The conformance driver for Vue: a component using the composable, mounted with
 * @testing-library/vue, its source held in a ref (so `setSource` is a reactive change).
 */
export const vueDriver: BindingDriver = {
  supportsSourceChange: true,
  async mount(source: ConformanceSource, options: BindingOptions) {
    const current = shallowRef(source);
    let chat!: UseLoushoAgentResult;
    const Chat = defineComponent({
      setup() {
        chat = useLoushoAgent(() => current.value, options);
        return () => h('p', `${chat.status.value} ${chat.messages.value.length}`);
      },
    });
    const view = render(Chat);
    return {
      state: () => ({
        messages: chat.messages.value,
        status: chat.status.value,
        pendingApproval: chat.pendingApproval.value,
        error: chat.error.value,
        usage: chat.usage.value,
        finishReason: chat.finishReason.value,
        guardrail: chat.guardrail.value,
        sessionId: chat.sessionId.value,
      }),
      send: (input) => chat.send(input),
      stop: () => chat.stop(),
      resume: () => chat.resume(),
      approve: (note) => chat.approve(note),
      reject: (note) => chat.reject(note),
      answer: (text) => chat.answer(text),
      upload: (file, name) => chat.upload(file, name),
      reset: () => chat.reset(),
      async setSource(next) {
        current.value = next;
        await nextTick();
      },
      unmount: () => view.unmount(),
    };
  },
};
