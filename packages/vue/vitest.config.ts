import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    name: 'vue',
    environment: 'jsdom',
    include: ['test/**/*.test.ts'],
  },
});
