import { defineConfig } from 'vitest/config';

/** Journeys in a real browser: two files at a time, after the data tests (each waits on its page, not on a clock). */
const BROWSER = ['e2e/**/*.test.ts'];

/**
 * Tests whose own timing is part of what they check, or that load the machine themselves: child processes started and
 * stopped (the CLI, several servers, shutdown, nginx in front of a server), and mail pollers against a real IMAP server. They run one file at a
 * time, last: beside another file on a 2-core machine, a child process's start or a poller's round could outlast its
 * wait.
 */
const ALONE = [
  'src/cli/**/*.test.ts',
  'src/server/cluster.test.ts',
  'src/server/main.test.ts',
  'src/server/production-install.test.ts',
  'src/server/deploy.test.ts',
  'src/server/shutdown.test.ts',
  'src/server/http/raw-requests.test.ts',
  'src/server/storage/several-servers.test.ts',
  'src/server/features/content-folder/content-folder.test.ts',
  'src/server/features/search/search-startup.test.ts',
  'src/server/tickets/mail-replies/**/*.test.ts',
];

/*
 * The data and browser files share their worker's modules (`isolate: false`): each builds its own app, database and
 * data folder, so evaluating the server again for every file (a quarter of the data files' time) buys nothing. The
 * ALONE files keep a process of their own each.
 */
export default defineConfig({
  test: {
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too short for a browser waiting on the server while the other
    // test files keep both cores busy. A poll that passes still returns as soon as it does.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'together',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: [...BROWSER, ...ALONE],
          // Two files at a time: most of a data test's time is spent waiting on its database.
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: BROWSER,
          // A journey's step runs several pages and accessibility checks (the admin's answer to a request: 11 s on a
          // quiet machine); beside the other browser file on two cores it can take three times that, and a step timed
          // out leaves its page to the next step, failing the rest of the journey with it.
          testTimeout: 90_000,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
