/**
 * The baseline of every benchmark: a bare node:http server that reads the body, runs JSON.parse
 * on it and echoes the text back (400 when it does not parse). No routing, no credentials, no
 * schema: the practical ceiling for a Node.js server answering these requests on this machine.
 * Run as its own process by bench/targets.ts; prints its URL once it listens.
 *
 * `baseline-server.js <µs>` adds that many microseconds of work (a busy wait) to every request:
 * the `padded` target, a control in the same rounds for what a microsecond of a server's own work
 * costs in requests per second on this machine (bench/README.md, "Reading the figures").
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const MALFORMED = '{"error":400,"message":"malformed JSON"}';
const PADDING_NS = BigInt(Math.round(Number(process.argv[2] ?? '0') * 1000));

function pad(): void {
  if (PADDING_NS === 0n) return;
  const until = process.hrtime.bigint() + PADDING_NS;
  while (process.hrtime.bigint() < until);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    pad();
    const text = Buffer.concat(chunks).toString('utf8');
    let status = 200;
    let body = text;
    try {
      JSON.parse(text);
    } catch {
      status = 400;
      body = MALFORMED;
    }
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`baseline listening on http://127.0.0.1:${port}\n`);
});

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
