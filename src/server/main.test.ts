import { describe, expect, it } from 'vitest';
import { startServe } from './testing/run-cli.ts';
import { createTestEnvironment } from './testing/test-context.ts';

const NOBODY = 'support requests reach nobody';

/** What `signpost serve` tells the operator as it starts (SQLite: start-up does not depend on the database kind). */
describe('starting the server', () => {
  it.each([
    ['neither email nor a webhook', {}, true],
    ['a webhook', { TICKET_WEBHOOK_URL: 'http://127.0.0.1:9/' }, false],
    ['email', { SUPPORT_EMAIL: 'desk@example.com', SMTP_URL: 'smtp://127.0.0.1:2525' }, false],
  ])('with %s, says whether support requests reach anyone', async (_label, env, warns) => {
    const environment = await createTestEnvironment('sqlite', { DEMO_CONTENT: 'false', ...env });
    try {
      const server = await startServe(environment.env);
      try {
        await expect.poll(() => server.output()).toContain('Server listening');
        // The warning follows the listening line at once, in the same tick.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(server.output().includes(NOBODY)).toBe(warns);
      } finally {
        await server.stop();
      }
    } finally {
      await environment.cleanup();
    }
  });
});
