/** The three demos, to link each to the others. */
export type DemoName = 'react' | 'vue' | 'sveltekit';

export interface DemoLink {
  name: DemoName;
  label: string;
  href: string;
  /** The demo this page is. */
  current: boolean;
  /** Said beside the link (e.g. how to start a demo that runs on its own server). */
  hint: string;
}

/** Where `npm run demo` (React at /, Vue at /vue/) and `npm run demo:svelte` listen by default. */
export const DEMO_SERVER_PORT = 3000;
export const SVELTEKIT_DEMO_PORT = 3001;

/**
 * The links between the demos, seen from `current` at `here` (the page's location). React and Vue
 * share the demo server; the SvelteKit demo is its own server, on the same host at its default
 * port, and runs only when started (`npm run demo:svelte`).
 */
export function demoLinks(current: DemoName, here: { protocol: string; hostname: string; port: string }): DemoLink[] {
  const host = here.hostname.includes(':') ? `[${here.hostname}]` : here.hostname;
  const origin = (port: number | string): string => `${here.protocol}//${host}${port === '' ? '' : `:${port}`}`;
  const demoServer = current === 'sveltekit' ? origin(DEMO_SERVER_PORT) : origin(here.port);
  const sveltekit = current === 'sveltekit' ? origin(here.port) : origin(SVELTEKIT_DEMO_PORT);
  return [
    { name: 'react', label: 'React', href: `${demoServer}/`, current: current === 'react', hint: 'npm run demo' },
    { name: 'vue', label: 'Vue', href: `${demoServer}/vue/`, current: current === 'vue', hint: 'npm run demo' },
    { name: 'sveltekit', label: 'SvelteKit', href: `${sveltekit}/`, current: current === 'sveltekit', hint: 'npm run demo:svelte' },
  ];
}
