import type { BindingDriver, BindingOptions, ConformanceSource } from '@lousho/conformance';
import { useLoushoAgent } from '../../src/index.js';
import { renderHook } from './harness.js';

/** The conformance driver for React: a component using the hook, mounted with react-dom/client. */
export function reactDriver({ strict }: { strict: boolean }): BindingDriver {
  return {
    supportsSourceChange: true,
    async mount(source: ConformanceSource, options: BindingOptions) {
      const view = renderHook((props: { source: ConformanceSource }) => useLoushoAgent(props.source, options), { source }, { strict });
      const hook = () => view.result.current;
      return {
        state: () => {
          const { messages, status, pendingApproval, error, usage, finishReason, guardrail, sessionId } = hook();
          return { messages, status, pendingApproval, error, usage, finishReason, guardrail, sessionId };
        },
        send: (input) => hook().send(input),
        stop: () => hook().stop(),
        resume: () => hook().resume(),
        approve: (note) => hook().approve(note),
        reject: (note) => hook().reject(note),
        answer: (text) => hook().answer(text),
        upload: (file, name) => hook().upload(file, name),
        reset: () => hook().reset(),
        setSource: (next) => view.rerender({ source: next }),
        unmount: () => view.unmount(),
      };
    },
  };
}
