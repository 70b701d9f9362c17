import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface DiscardLimits {
  /** Bytes of a refused body read and thrown away before the connection is cut. */
  maxBytes: number;
  /** How long they are waited for, from the answer on. */
  maxMs: number;
}

export const DISCARD_LIMITS: DiscardLimits = { maxBytes: 256 * 1024 * 1024, maxMs: 30_000 };

/**
 * Reads and throws away what is left of a request body nobody will read (the answer refused it part-way: a file too
 * large, a limit reached, a body that is not what the route takes). A connection closed with bytes still unread is
 * reset by the operating system, and a client still sending then loses the answer too: the browser shows a network
 * error instead of "file too large". Past the limits the connection is cut all the same. Answers whether there was
 * anything left to read.
 */
export function discardRestOfBody(request: IncomingMessage, limits: DiscardLimits = DISCARD_LIMITS): boolean {
  const socket = request.socket;
  // An injected request (tests, server-side rendering) has no connection to reset.
  if (!(socket instanceof net.Socket)) return false;
  if (request.complete || request.readableEnded || request.destroyed) return false;
  // Whoever read it before (the multipart parser) gives up its place; the bytes go nowhere from now on.
  request.unpipe();
  request.removeAllListeners('data');
  let discarded = 0;
  const cut = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(cut, limits.maxMs);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) cut();
  });
  request.once('end', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
  request.resume();
  return true;
}

/**
 * Every answer sent before its request's body has fully arrived drains the rest (bounded), as nginx does. The
 * connection stays open for the next request once the body is read: Fastify's `Connection: close` on a refused body
 * would have Node close it right after the answer, while the client is still sending, which is the reset we avoid.
 */
export function registerBodyDiscarding(app: FastifyInstance, limits: DiscardLimits = DISCARD_LIMITS): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (discardRestOfBody(request.raw, limits) && String(reply.getHeader('connection')) === 'close') {
      reply.removeHeader('connection');
    }
    return payload;
  });
}
