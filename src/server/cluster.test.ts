import { describe, expect, it } from 'vitest';
import { startServe } from './testing/run-cli.ts';
import { createTestEnvironment } from './testing/test-context.ts';

describe('WORKERS=2', () => {
  it('runs two servers on one port, loads the demo once, and stops cleanly on SIGTERM', async () => {
    const environment = await createTestEnvironment('sqlite');
    try {
      const server = await startServe({ ...environment.env, WORKERS: '2' });
      try {
        // Both workers say they listen; the demo was loaded by the primary, once.
        for (let i = 0; i < 100 && (server.output().match(/Server listening at/g) ?? []).length < 2; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(server.output().match(/Server listening at/g)).toHaveLength(2);
        expect(server.output().match(/loaded the demo help centre/g)).toHaveLength(1);
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${server.url}/api/knowledge/all-sections`)),
        );
        expect(answers.every((answer) => answer.status === 200)).toBe(true);
        const sections = await answers[0]?.json();
        expect(sections.length).toBeGreaterThan(0);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    } finally {
      await environment.cleanup();
    }
  });
});
