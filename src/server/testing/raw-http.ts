import net from 'node:net';

/**
 * One HTTP/1.1 request written byte for byte on its own connection: Node's client refuses to send what a hostile
 * client would (a malformed %-escape in the path, CR or NUL in a header, a broken chunked body), so tests that
 * must send it write it themselves.
 */
export interface RawRequest {
  method: string;
  /** The request target exactly as written on the request line. */
  target: string;
  /** In order; values go out as UTF-8, control characters included. */
  headers: [string, string][];
  body?: Buffer;
  /** Leave Content-Length out (the headers carry Transfer-Encoding, or the request has no body). */
  noContentLength?: boolean;
}

export interface RawResponse {
  /** 0 when no complete answer came. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Why there is no complete answer: a timeout, or the connection closed first. */
  error?: string;
}

function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (data.length < start + size + 2) return null;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/**
 * The first answer in `data` if it is complete, with how many bytes it took; with `ended`, whatever came counts as
 * the body.
 */
function parseFirst(
  data: Buffer,
  method: string,
  ended: boolean,
): { response: RawResponse; size: number } | null {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine = '', ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const start = headEnd + 4;
  const rest = data.subarray(start);
  if (method === 'HEAD' || status === 204 || status === 304)
    return { response: { status, headers, body: Buffer.alloc(0) }, size: start };
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const body = dechunk(rest);
    return body ? { response: { status, headers, body }, size: data.length } : null;
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    return rest.length >= length
      ? { response: { status, headers, body: rest.subarray(0, length) }, size: start + length }
      : null;
  }
  return ended ? { response: { status, headers, body: rest }, size: data.length } : null;
}

const parseResponse = (data: Buffer, method: string, ended: boolean) =>
  parseFirst(data, method, ended)?.response ?? null;

export function sendRaw(port: number, request: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let settled = false;
    const settle = (response: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(response);
    };
    const noAnswer = (error: string): RawResponse => {
      const partial = parseResponse(Buffer.concat(received), request.method, true);
      return partial ?? { status: 0, headers: {}, body: Buffer.concat(received), error };
    };
    const timer = setTimeout(() => settle(noAnswer(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('connect', () => {
      const headers = [...request.headers];
      if (request.body && !request.noContentLength) {
        headers.push(['Content-Length', String(request.body.length)]);
      }
      const head = `${request.method} ${request.target} HTTP/1.1\r\n${headers
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`;
      socket.write(Buffer.from(head, 'utf8'));
      if (request.body?.length) socket.write(request.body);
    });
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const response = parseResponse(Buffer.concat(received), request.method, false);
      if (response) settle(response);
    });
    // A server that answers early (413) and closes may reset the connection while the body is still going out.
    socket.on('error', (error) => settle(noAnswer(`connection failed: ${error.message}`)));
    socket.on('end', () => settle(noAnswer('the connection closed before a complete answer')));
  });
}

/**
 * One TCP connection spoken to byte by byte, as a browser's upload looks to the server: the test decides what is
 * sent when, and reads each answer as it arrives, while it is still sending.
 */
export interface RawConnection {
  /** Queues bytes; resolves once the socket has taken them. */
  write(data: string | Buffer): Promise<void>;
  /** The next whole answer (framed by Content-Length); fails if the connection ends or breaks first. */
  response(): Promise<RawResponse>;
  destroy(): void;
}

export async function openRawConnection(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  const socket = net.connect(port, host);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  /** How the connection ended, once it has: `closed` (FIN) or the error's code. */
  let end: string | null = null;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    end ??= error.code ?? error.message;
    waiting?.();
  });
  socket.on('close', () => {
    end ??= 'closed';
    waiting?.();
  });
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  });

  const parse = (): RawResponse | null => {
    const first = parseFirst(buffered, 'POST', false);
    if (first) buffered = buffered.subarray(first.size);
    return first?.response ?? null;
  };

  return {
    write: (data) =>
      new Promise<void>((resolve, reject) =>
        socket.write(data, (error) => (error ? reject(error) : resolve())),
      ),
    async response() {
      for (;;) {
        const parsed = parse();
        if (parsed) return parsed;
        if (end) throw new Error(`the connection ended (${end}) before a whole answer came`);
        await new Promise<void>((resolve) => (waiting = resolve));
        waiting = null;
      }
    },
    destroy: () => socket.destroy(),
  };
}
