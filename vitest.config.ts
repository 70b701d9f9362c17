import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too short for a browser waiting on the server while the other
    // test files keep both cores busy. A poll that passes still returns as soon as it does.
    expect: { poll: { timeout: 10_000 } },
  },
});
