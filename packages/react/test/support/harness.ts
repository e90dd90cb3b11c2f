import { createElement, StrictMode, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

// A minimal render harness on react-dom/client, the same for React 18 and 19 (the React 18 test
// files swap these imports with vi.mock). Renders are flushed synchronously; updates from the
// client then arrive on React's own schedule, as in an app (no act() environment).

export interface Mounted {
  container: HTMLElement;
  rerender(node: ReactNode): void;
  unmount(): void;
}

export function mount(node: ReactNode, { strict }: { strict: boolean }): Mounted {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const wrap = (child: ReactNode): ReactNode => (strict ? createElement(StrictMode, null, child) : child);
  flushSync(() => root.render(wrap(node)));
  let mounted = true;
  return {
    container,
    rerender: (next) => flushSync(() => root.render(wrap(next))),
    unmount() {
      if (!mounted) return;
      mounted = false;
      root.unmount();
      container.remove();
    },
  };
}

export interface RenderedHook<P, R> {
  /** What the hook returned in the latest render. */
  result: { current: R };
  rerender(props: P): void;
  unmount(): void;
}

export function renderHook<P, R>(hook: (props: P) => R, props: P, options: { strict: boolean }): RenderedHook<P, R> {
  const result = { current: undefined as R };
  function Probe({ hookProps }: { hookProps: P }): null {
    result.current = hook(hookProps);
    return null;
  }
  const view = mount(createElement(Probe, { hookProps: props }), options);
  return {
    result,
    rerender: (next) => view.rerender(createElement(Probe, { hookProps: next })),
    unmount: () => view.unmount(),
  };
}
