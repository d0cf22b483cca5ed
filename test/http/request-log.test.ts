/**
 * The command line's request log (src/http/request-log.ts) on real file descriptors: a line is
 * not written on the request path but soon after, in order; close() writes every line taken;
 * a process that exits at once (process.exit, as a crash does) still writes what it held; a
 * reader gone does not stop the process. The lines' format is checked where the server writes
 * them (test/reference/cli.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../api/index.js';
import { FLUSH_MS, milliseconds, requestLine, requestLog } from '../../src/http/index.js';

/** The built module (`npm run build`), for the child processes. */
const module = fileURLToPath(new URL('../../dist/src/http/request-log.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(module)) throw new Error('dist/ is missing: run `npm run build` (npm test does)');
});

const dir = mkdtempSync(join(tmpdir(), 'request-log-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** A fresh file open for writing, and how to read it. */
function output(): { fd: number; read: () => string } {
  const file = join(dir, `log-${++files}.txt`);
  const fd = openSync(file, 'w');
  return { fd, read: () => readFileSync(file, 'utf8') };
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('requestLog', () => {
  it('writes nothing on the request path, then every line in order, each after its label, without being closed', async () => {
    const { fd, read } = output();
    const log = requestLog({ fd, label: '[x] ' });
    try {
      log.line('one');
      log.line('two');
      expect(read()).toBe(''); // not written synchronously: the answer does not wait for the log
      await until(() => read() === '[x] one\n[x] two\n');
    } finally {
      await log.close(); // and closes the descriptor, which the log owns
    }
  });

  it('close() writes every line taken, however many, and resolves once they are out; later lines are dropped', async () => {
    const { fd, read } = output();
    const log = requestLog({ fd });
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}`);
    for (const line of lines) log.line(line);
    await log.close();
    const all = lines.map((line) => `${line}\n`).join('');
    expect(read()).toBe(all); // at once, not FLUSH_MS later
    log.line('after close');
    await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 2));
    expect(read()).toBe(all);
  });

  it('two logs on one descriptor (start runs two servers) share its writer: every line whole, after the last close()', async () => {
    const { fd, read } = output();
    const [a, b] = [requestLog({ fd, label: '[a] ' }), requestLog({ fd, label: '[b] ' })];
    const line = (i: number): string => `${i} ${'x'.repeat(200)}`;
    for (let i = 0; i < 2_000; i++) {
      a.line(line(i));
      b.line(line(i));
    }
    await a.close();
    b.line(line(2_000)); // b is still open
    await b.close();
    const lines = read().split('\n').slice(0, -1);
    expect(lines).toHaveLength(4_001);
    for (const written of lines) expect(written).toMatch(/^\[[ab]\] \d+ x{200}$/);
    expect(lines.filter((written) => written.startsWith('[b] '))).toEqual(Array.from({ length: 2_001 }, (_, i) => `[b] ${line(i)}`));
  });

  it('a process that ends with process.exit() right after logging still writes every line', () => {
    const script = `import { requestLog } from ${JSON.stringify(module)};
      const log = requestLog();
      for (let i = 0; i < 1000; i++) log.line('line ' + i);
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
    expect(child.stdout).toBe(Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('a reader gone (EPIPE) ends the log, not the process', () => {
    // `head -c 1` reads one byte and exits: every later write to the pipe fails.
    const script = `import { requestLog } from ${JSON.stringify(module)};
      const log = requestLog();
      let n = 0;
      const timer = setInterval(() => { for (let i = 0; i < 100; i++) log.line('x'.repeat(100)); if (++n === 40) { clearInterval(timer); void log.close().then(() => process.stderr.write('alive')); } }, 5);`;
    const child = spawnSync('bash', ['-c', `"${process.execPath}" --input-type=module -e "$SCRIPT" | head -c 1 >/dev/null; echo " exit \${PIPESTATUS[0]}" >&2`], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, SCRIPT: script },
    });
    expect(child.stderr).toBe('alive exit 0\n');
  });
});

describe('the lines the socket layer writes', () => {
  it('one per answer: the status of a finished one, fault=… for one broken on purpose, none for a client gone first', async () => {
    const lines: string[] = [];
    const mock = await startMock({ log: (line) => lines.push(line) });
    try {
      const send = (prefer?: string, signal?: AbortSignal): Promise<Response> =>
        fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json', ...(prefer ? { prefer } : {}) }, body: '{"name":"a","id":1}', signal: signal ?? null });
      expect((await send()).status).toBe(200);
      await expect(send('fault=reset')).rejects.toThrow();
      // Held back 5 s and abandoned by its client after 100 ms: nothing is answered, nothing logged.
      await expect(send('delay=5000', AbortSignal.timeout(100))).rejects.toThrow();
      await until(() => lines.length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines.map((line) => line.split(' ').slice(1, 4).join(' '))).toEqual(['POST /plants 200', 'POST /plants fault=reset']);
    } finally {
      await mock.close();
    }
  });
});

describe('requestLine', () => {
  it('names the method, the path without its query (RFC 6750, section 2.3), the status and the time', () => {
    const line = requestLine('POST', '/plants?access_token=secret', 200, performance.now() - 1.5);
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z POST \/plants 200 \d+\.\d\dms$/);
    expect(line).not.toContain('secret');
    expect(Number(/ (\d+\.\d\d)ms$/.exec(line)?.[1])).toBeGreaterThanOrEqual(1.5);
    expect(requestLine(undefined, undefined, 'fault=reset', performance.now())).toMatch(/Z - - fault=reset \d+\.\d\dms$/);
  });

  it('writes the time with two decimals, as toFixed(2) would', () => {
    for (const ms of [0, 0.004, 0.005, 0.07, 0.1, 1, 1.5, 9.999, 10.01, 123.456, 1234567.891]) expect(milliseconds(ms)).toBe(ms.toFixed(2));
  });
});
