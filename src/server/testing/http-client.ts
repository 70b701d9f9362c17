import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over its own connection to a listening server, as a separate browser would send it. */
export function sendHttp(
  port: number,
  request: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; body?: string | Buffer },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method ?? 'GET',
        path: request.path,
        headers: request.headers,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

const HOUR = 60 * 60 * 1000;

/**
 * Runs a scenario that counts against hourly limits, again if the hour changed while it ran (the counters start
 * afresh at the top of the hour, so part of it would have counted in each). The scenario is told which attempt it is,
 * so that it can use client addresses of its own each time; a second attempt cannot meet another hour's end.
 */
export async function withinOneHour<T>(scenario: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const hour = Math.floor(Date.now() / HOUR);
    const result = await scenario(attempt);
    if (attempt > 0 || Math.floor(Date.now() / HOUR) === hour) return result;
  }
}
