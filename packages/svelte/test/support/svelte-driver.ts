import { render } from '@testing-library/svelte';
import type { Component } from 'svelte';
import type { BindingDriver, BindingOptions, ConformanceSource } from '@lousho/conformance';
import type { LoushoAgentStore, LoushoAgentValue } from '../../src/index.js';
import LegacyProbe from '../components/LegacyProbe.svelte';
import Probe from '../components/Probe.svelte';

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
        state: () => {
          const { messages, status, pendingApproval, error, usage, finishReason, guardrail, sessionId } = value;
          return { messages, status, pendingApproval, error, usage, finishReason, guardrail, sessionId };
        },
        send: (input) => store.send(input),
        stop: () => store.stop(),
        resume: () => store.resume(),
        approve: (note) => store.approve(note),
        reject: (note) => store.reject(note),
        answer: (text) => store.answer(text),
        upload: (file, name) => store.upload(file, name),
        reset: () => store.reset(),
        setSource: (next) => view.rerender({ source: next }),
        unmount: () => view.unmount(),
      };
    },
  };
}
