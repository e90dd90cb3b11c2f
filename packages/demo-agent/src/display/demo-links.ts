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
 * The two servers run side by side on neighbouring ports: 3000 and 3001 by default, P and P + 1 when
 * one is started with PORT=P (its banner says how to start the other there). Undefined when `port`
 * is no port of ours (a page served on its scheme's default port, behind a proxy).
 */
export function portBeside(server: 'demo-server' | 'sveltekit', port: string | number): number | undefined {
  const n = Number(port);
  if (String(port) === '' || !Number.isInteger(n) || n < 2 || n > 65534) return undefined;
  return server === 'demo-server' ? n + 1 : n - 1;
}

/**
 * The links between the demos, seen from `current` at `here` (the page's location). React and Vue
 * share the demo server; the SvelteKit demo is its own server, on the same host at the port beside
 * the demo server's (see portBeside), and runs only when started (`npm run demo:svelte`).
 */
export function demoLinks(current: DemoName, here: { protocol: string; hostname: string; port: string }): DemoLink[] {
  const host = here.hostname.includes(':') ? `[${here.hostname}]` : here.hostname;
  const origin = (port: number | string): string => `${here.protocol}//${host}${port === '' ? '' : `:${port}`}`;
  const demoServer = current === 'sveltekit' ? origin(portBeside('sveltekit', here.port) ?? DEMO_SERVER_PORT) : origin(here.port);
  const sveltekit = current === 'sveltekit' ? origin(here.port) : origin(portBeside('demo-server', here.port) ?? SVELTEKIT_DEMO_PORT);
  return [
    { name: 'react', label: 'React', href: `${demoServer}/`, current: current === 'react', hint: 'npm run demo' },
    { name: 'vue', label: 'Vue', href: `${demoServer}/vue/`, current: current === 'vue', hint: 'npm run demo' },
    { name: 'sveltekit', label: 'SvelteKit', href: `${sveltekit}/`, current: current === 'sveltekit', hint: 'npm run demo:svelte' },
  ];
}
