/**
 * bench:http's reference: bare `node:http` answering every request with one kept answer (status, headers and body
 * as Signpost sent them for the bench's request headers), a fresh x-request-id each time as Signpost gives one. It
 * runs in its own process, like Signpost, so the two are measured alike: what Signpost's kept-answer path costs
 * beyond Node's own HTTP server is the gap between them.
 *
 *   BARE_ANSWER=file.json PORT=N node --import tsx bench/support/bare-server.ts
 *
 * The file: { status, headers: [name, value, ...], body: base64 }.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

interface KeptAnswer {
  status: number;
  headers: string[];
  body: string;
}

const kept = JSON.parse(fs.readFileSync(process.env.BARE_ANSWER ?? '', 'utf8')) as KeptAnswer;
const body = Buffer.from(kept.body, 'base64');
const headers = [...kept.headers, 'content-length', String(body.length)];

const server = http.createServer((_request, response) => {
  response.writeHead(kept.status, [...headers, 'x-request-id', crypto.randomUUID()]);
  response.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
