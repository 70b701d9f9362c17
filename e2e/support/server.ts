import type { AddressInfo } from 'node:net';
import { seedDemo } from '../../src/server/features/content-folder/demo.service.ts';
import { createTestApp, type TestApp } from '../../src/server/testing/test-context.ts';

export interface RunningServer extends TestApp {
  url: string;
}

/** The real server on a free loopback port, on a fresh SQLite database, with the demo help centre unless told not. */
export async function startServer(
  options: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const testApp = await createTestApp('sqlite', options.env);
  if (options.demo !== false) await seedDemo(testApp.ctx);
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { ...testApp, url: `http://127.0.0.1:${port}` };
}
