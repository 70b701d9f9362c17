import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
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
    const headEnd = buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return null;
    const [statusLine = '', ...lines] = buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (buffered.length < headEnd + 4 + length) return null;
    const body = buffered.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    buffered = buffered.subarray(headEnd + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
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
