/** Writing a request: the head under the base URL's path; on hold, the final CRLF only once `proceed` allows it. */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { requestHead, writeRequest } from '../../../fuzz/wire/request-writing.js';
import type { HttpRequest } from '../../../oracle/types.js';

const request: HttpRequest = { method: 'POST', path: '/plants?x=1', headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') };

/** A server that keeps what each connection sent, and a socket to it. */
async function pair(): Promise<{ socket: Socket; received: () => string; close: () => void }> {
  let text = '';
  const server = createServer((s) => s.on('data', (chunk: Buffer) => (text += chunk.toString('latin1'))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => text, close: () => (socket.destroy(), server.close()) };
}

describe('request writing', () => {
  it('writes the head under the base URL, closing when asked', () => {
    const head = requestHead(new URL('http://127.0.0.1:3000/api/'), request, true).toString('latin1');
    expect(head.startsWith('POST /api/plants?x=1 HTTP/1.1\r\n')).toBe(true);
    expect(head).toMatch(/\r\nhost: 127\.0\.0\.1:3000\r\n/i);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(head).toMatch(/\r\ncontent-length: 2\r\n/i);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
  });

  it('holds back the head’s final CRLF and the body until proceed says so', async () => {
    const { socket, received, close } = await pair();
    const head = requestHead(new URL('http://127.0.0.1:3000'), request, false);
    let asked = 0;
    writeRequest(socket, head, request.body, true, () => ++asked > 0);
    await sleep(50);
    expect(asked).toBe(1);
    expect(received()).toBe(`${head.toString('latin1')}{}`);
    close();
  });

  it('sends nothing more when proceed says no', async () => {
    const { socket, received, close } = await pair();
    const head = requestHead(new URL('http://127.0.0.1:3000'), request, false);
    writeRequest(socket, head, request.body, true, () => false);
    await sleep(50);
    expect(received()).toBe(head.subarray(0, head.length - 2).toString('latin1'));
    close();
  });
});
