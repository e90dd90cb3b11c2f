import { render } from '@testing-library/vue';
import { defineComponent, h, nextTick, shallowRef } from 'vue';
import type { BindingDriver, BindingOptions, ConformanceSource, MountedBinding } from '@lousho/conformance';
import { useLoushoAgent, type UseLoushoAgentResult } from '../../src/index.js';
import { useLoushoSessions, type UseLoushoSessionsResult } from '../../src/sessions/index.js';

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
      ...chatOf(() => chat),
      async setSource(next) {
        current.value = next;
        await nextTick();
      },
      unmount: () => view.unmount(),
    };
  },
  // A chat and its thread list in one component (a sidebar of titles), as a page has them.
  async mountWithThreads(source: ConformanceSource, options: BindingOptions) {
    let chat!: UseLoushoAgentResult;
    let threads!: UseLoushoSessionsResult;
    const Page = defineComponent({
      setup() {
        chat = useLoushoAgent(source, options);
        threads = useLoushoSessions(source, chat);
        return () => h('div', [h('ul', threads.sessions.value.map((thread) => h('li', { key: thread.id }, thread.title ?? 'New thread'))), h('p', `${chat.status.value} ${chat.messages.value.length}`)]);
      },
    });
    const view = render(Page);
    return {
      ...chatOf(() => chat),
      open: (id) => chat.open(id),
      unmount: () => view.unmount(),
      threads: {
        state: () => ({ sessions: threads.sessions.value, status: threads.status.value, error: threads.error.value, hasMore: threads.hasMore.value, current: threads.current.value }),
        refresh: () => threads.refresh(),
        loadMore: () => threads.loadMore(),
        rename: (id, title) => threads.rename(id, title),
        remove: (id) => threads.remove(id),
        open: (id) => threads.open(id),
        openNew: () => threads.openNew(),
      },
    };
  },
};

/** What a mounted chat shows and does, read from the composable's refs. */
function chatOf(get: () => UseLoushoAgentResult): Omit<MountedBinding, 'setSource' | 'unmount'> {
  return {
    state: () => {
      const chat = get();
      return {
        messages: chat.messages.value,
        status: chat.status.value,
        pendingApproval: chat.pendingApproval.value,
        error: chat.error.value,
        usage: chat.usage.value,
        finishReason: chat.finishReason.value,
        guardrail: chat.guardrail.value,
        queued: chat.queued.value,
        sessionId: chat.sessionId.value,
      };
    },
    send: (input, options) => get().send(input, options),
    unqueue: (id) => get().unqueue(id),
    stop: () => get().stop(),
    resume: () => get().resume(),
    approve: (note) => get().approve(note),
    reject: (note) => get().reject(note),
    answer: (text) => get().answer(text),
    submitToolResult: (toolCallId, result, more) => get().submitToolResult(toolCallId, result, more),
    upload: (file, name) => get().upload(file, name),
    reset: () => get().reset(),
  };
}
