import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    name: 'vue',
    environment: 'jsdom',
    include: ['test/**/*.test.ts'],
    // vue-tsc, so the .vue fixtures the type tests import are checked (templates included).
    typecheck: { enabled: true, checker: 'vue-tsc', include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
