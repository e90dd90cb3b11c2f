import adapter from '@sveltejs/adapter-node';

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    // The browser tests and the configs are type-checked with the app (paths relative to .svelte-kit/).
    typescript: {
      config: (config) => {
        config.include.push('../e2e/**/*.ts', '../test/**/*.ts', '../vitest.config.ts', '../vitest.unit.config.ts', '../vitest.scenarios.config.ts', '../vite.config.ts');
      },
    },
    // A standalone Node server in build/: `node build` (PORT, HOST, ORIGIN from the environment).
    adapter: adapter(),
    // A second line of defence only: model and tool text is always rendered as text. SvelteKit adds
    // a nonce for its own inline start-up script.
    csp: {
      mode: 'nonce',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self', 'data:', 'blob:'], // blob: the in-page agent's uploaded images
        'connect-src': ['self'],
        'object-src': ['none'],
        'base-uri': ['none'],
        'frame-ancestors': ['none'],
      },
    },
  },
};
