import { defineConfig } from 'vitest/config';

/** One `vitest run` covers every workspace project; each keeps its own environment. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', environment: 'node' } },
      { test: { name: 'sync', root: 'packages/sync', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'server',
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The real server and real sync clients over real sockets (fault injection, catch-up).
        test: {
          name: 'system',
          root: 'tests/system',
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'desktop', root: 'apps/desktop', environment: 'node' } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'jsdom',
          setupFiles: ['./test/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
