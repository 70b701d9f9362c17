import type { AddressInfo } from 'node:net';
import { seedDemo } from '../../src/server/features/content-folder/demo.service.ts';
import { DEFAULT_PASSWORD } from '../../src/server/testing/factories.ts';
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

/** The token of a user made with the factories' default password, signed in as the portal does. */
export async function signIn(url: string, email: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEFAULT_PASSWORD }),
  });
  if (!response.ok) throw new Error(`signing in ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** A signed-in customer's support request, sent as the site sends it. */
export async function sendRequest(
  url: string,
  token: string,
  customer: { name: string; email: string },
): Promise<void> {
  const sent = await fetch(`${url}/panel/api/issue-open`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify({
      title: 'Lumo Help Centre: Thermostat',
      description: 'My thermostat shows E4 after I replaced the batteries. What should I do?',
      channel: 'web',
      name: customer.name,
      email: customer.email,
      files: [],
      g_recaptcha_response: '',
    }),
  });
  if (!sent.ok) throw new Error(`sending a request: ${sent.status} ${await sent.text()}`);
}
