import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', include: ['domain/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'web', include: ['web/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts'],
          environment: 'node',
          // Migrates and seeds the demo database once; each file starts from its own copy.
          globalSetup: ['server/test/globalSetup.ts'],
          // Two files at a time: the embedded database keeps one core busy per file (vitest's default on
          // two cores is one worker).
          maxWorkers: 2,
          // Generous too: the derived-data oracles recompute whole tables, slow on a loaded machine.
          testTimeout: 120_000,
          // Generous: a test file's setup must not fail because the machine is busy.
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
