import { render } from '@testing-library/svelte';
import type { Component } from 'svelte';
import type { BindingDriver, BindingOptions, ConformanceSource, MountedBinding } from '@lousho/conformance';
import type { LoushoAgentStore, LoushoAgentValue } from '../../src/index.js';
import LegacyProbe from '../components/LegacyProbe.svelte';
import Probe from '../components/Probe.svelte';
import ThreadsProbe from '../components/ThreadsProbe.svelte';
import type { LoushoSessionsStore, SessionListState } from '../../src/sessions/index.js';

type ProbeProps = { source: ConformanceSource; options?: BindingOptions; onValue?: (value: LoushoAgentValue, store: LoushoAgentStore) => void };

/**
 * The conformance driver for Svelte: a component that uses `$agent`, rendered with
 * @testing-library/svelte. `state()` is the value the component rendered last (its `$agent`);
 * actions go to the store it holds; a new source re-renders it with new props.
 */
export function svelteDriver({ legacy }: { legacy: boolean }): BindingDriver {
  const component = (legacy ? LegacyProbe : Probe) as unknown as Component<ProbeProps>;
  return {
    supportsSourceChange: true,
    async mount(source: ConformanceSource, options: BindingOptions) {
      let value!: LoushoAgentValue;
      let store!: LoushoAgentStore;
      const view = render(component, {
        props: {
          source,
          options,
          onValue: (latest, latestStore) => {
            value = latest;
            store = latestStore;
          },
        },
      });
      return {
        ...chatOf(() => value, () => store),
        setSource: (next) => view.rerender({ source: next }),
        unmount: () => view.unmount(),
      };
    },
    // A chat and its thread list in one component (`$agent` and `$threads`), as a page with a sidebar has them.
    async mountWithThreads(source: ConformanceSource, options: BindingOptions) {
      let value!: LoushoAgentValue;
      let store!: LoushoAgentStore;
      let list!: SessionListState;
      let threads!: LoushoSessionsStore;
      const view = render(ThreadsProbe as unknown as Component<Record<string, unknown>>, {
        props: {
          source,
          options,
          onValue: (latest: LoushoAgentValue, latestStore: LoushoAgentStore, latestList: SessionListState, threadsStore: LoushoSessionsStore) => {
            value = latest;
            store = latestStore;
            list = latestList;
            threads = threadsStore;
          },
        },
      });
      return {
        ...chatOf(() => value, () => store),
        open: (id) => store.open(id),
        unmount: () => view.unmount(),
        threads: {
          state: () => ({ ...list }),
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
}

/** What a mounted chat shows (the value the component rendered last) and does (through its store). */
function chatOf(value: () => LoushoAgentValue, store: () => LoushoAgentStore): Omit<MountedBinding, 'setSource' | 'unmount'> {
  return {
    state: () => {
      const { messages, status, pendingApproval, error, usage, finishReason, guardrail, queued, sessionId } = value();
      return { messages, status, pendingApproval, error, usage, finishReason, guardrail, queued, sessionId };
    },
    send: (input, options) => store().send(input, options),
    unqueue: (id) => store().unqueue(id),
    stop: () => store().stop(),
    resume: () => store().resume(),
    approve: (note) => store().approve(note),
    reject: (note) => store().reject(note),
    answer: (text) => store().answer(text),
    submitToolResult: (toolCallId, result, more) => store().submitToolResult(toolCallId, result, more),
    upload: (file, name) => store().upload(file, name),
    reset: () => store().reset(),
  };
}
