import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: { name: 'flows', include: ['test/**/*.test.ts'], typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' } },
});
