import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { ACCOUNT_MAIL_CLAIM_MS } from '../mail/account-mail.ts';
import { sendMail, SMTP_SEND_CAP_MS, SMTP_TIMEOUTS } from './send-mail.ts';

/**
 * A mail server that answers every command at once but, once it has the message, drips its answer a byte at a
 * time and never ends the line: the connection is never idle, so only a cap on the whole send ends it.
 */
async function startDrippingServer() {
  const sockets = new Set<net.Socket>();
  let closed = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let drip: NodeJS.Timeout | undefined;
    let inData = false;
    let buffer = '';
    socket.on('close', () => {
      clearInterval(drip);
      sockets.delete(socket);
      closed += 1;
    });
    socket.on('error', () => undefined);
    socket.write('220 dripping ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      if (inData) {
        if (!buffer.includes('\r\n.\r\n')) return;
        inData = false;
        socket.write('2');
        drip = setInterval(() => socket.write('5'), 50);
        return;
      }
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go on\r\n');
          return;
        }
        socket.write(line.startsWith('QUIT') ? '221 bye\r\n' : '250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    closed: () => closed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('sending one mail', () => {
  let smtp: Awaited<ReturnType<typeof startDrippingServer>>;
  beforeAll(async () => {
    smtp = await startDrippingServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it("bounds one send, and each of SMTP's timeouts, well inside an outbox's claim", () => {
    for (const [name, timeout] of Object.entries(SMTP_TIMEOUTS))
      expect(timeout, name).toBeLessThanOrEqual(SMTP_SEND_CAP_MS);
    // Half the claim at most: the rest is for the database around the send (claim, mark) on a slow day.
    expect(2 * SMTP_SEND_CAP_MS).toBeLessThanOrEqual(ACCOUNT_MAIL_CLAIM_MS);
  });

  it('abandons a send to a server that drips its answer, and closes the connection', async () => {
    const ctx = {
      config: { tickets: { smtpUrl: smtp.url, mailFrom: 'help@example.com' } },
    } as unknown as AppContext;
    await expect(
      sendMail(ctx, { to: 'someone@example.com', subject: 'Hello', text: 'Hello\n' }, [], 300),
    ).rejects.toThrow();
    await expect.poll(() => smtp.closed()).toBe(1);
  });
});
