import type { BindingDriver, BindingOptions, ConformanceSource, MountedBinding } from '@lousho/conformance';
import { useLoushoAgent } from '../../src/index.js';
import { useLoushoSessions } from '../../src/sessions/index.js';
import { renderHook } from './harness.js';

/** The conformance driver for React: a component using the hook, mounted with react-dom/client. */
export function reactDriver({ strict }: { strict: boolean }): BindingDriver {
  return {
    supportsSourceChange: true,
    async mount(source: ConformanceSource, options: BindingOptions) {
      const view = renderHook((props: { source: ConformanceSource }) => useLoushoAgent(props.source, options), { source }, { strict });
      const hook = () => view.result.current;
      return {
        ...chatOf(hook),
        setSource: (next) => view.rerender({ source: next }),
        unmount: () => view.unmount(),
      };
    },
    // A chat and its thread list in one component, as a page with a sidebar has them.
    async mountWithThreads(source: ConformanceSource, options: BindingOptions) {
      const view = renderHook(
        (props: { source: ConformanceSource }) => {
          const chat = useLoushoAgent(props.source, options);
          return { chat, threads: useLoushoSessions(props.source, chat) };
        },
        { source },
        { strict },
      );
      const chat = () => view.result.current.chat;
      const threads = () => view.result.current.threads;
      return {
        ...chatOf(chat),
        open: (id) => chat().open(id),
        unmount: () => view.unmount(),
        threads: {
          state: () => {
            const { sessions, status, error, hasMore, current } = threads();
            return { sessions, status, error, hasMore, current };
          },
          refresh: () => threads().refresh(),
          loadMore: () => threads().loadMore(),
          rename: (id, title) => threads().rename(id, title),
          remove: (id) => threads().remove(id),
          open: (id) => threads().open(id),
          openNew: () => threads().openNew(),
        },
      };
    },
  };
}

/** What a mounted chat shows and does, read from the hook's latest result. */
function chatOf(hook: () => ReturnType<typeof useLoushoAgent>): Omit<MountedBinding, 'setSource' | 'unmount'> {
  return {
    state: () => {
      const { messages, status, pendingApproval, error, usage, finishReason, guardrail, queued, sessionId } = hook();
      return { messages, status, pendingApproval, error, usage, finishReason, guardrail, queued, sessionId };
    },
    send: (input, options) => hook().send(input, options),
    unqueue: (id) => hook().unqueue(id),
    stop: () => hook().stop(),
    resume: () => hook().resume(),
    approve: (note) => hook().approve(note),
    reject: (note) => hook().reject(note),
    answer: (text) => hook().answer(text),
    submitToolResult: (toolCallId, result, more) => hook().submitToolResult(toolCallId, result, more),
    upload: (file, name) => hook().upload(file, name),
    reset: () => hook().reset(),
  };
}
