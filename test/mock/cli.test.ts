/**
 * `plant-store start` (what `npm start` runs) and `plant-store mock` as a user runs them: the
 * built command in its own process group, the printed curl commands run by a shell, Ctrl-C sent
 * to the whole group as a terminal does, and nothing left behind.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract, parseJson } from '../../src/openapi/index.js';
import { connectOutcome, occupiedPort } from '../support/http.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'plant-store.js');
const READY_TIMEOUT_MS = 20_000;
const addPlant = loadContract().findOperation('POST', '/plants');

interface Cli {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Cli[] = [];

afterEach(() => {
  // A failed test must not leave its process behind either.
  for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.pid !== undefined) process.kill(-cli.child.pid, 'SIGKILL');
});

/** Runs the built CLI in a process group of its own, as a shell runs a foreground job. */
function cli(...args: string[]): Cli {
  const child = spawn(process.execPath, [BIN, ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PLANT_STORE_TOKENS: '' } });
  const handle: Cli = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        resolve({ code, signal });
      });
    }),
  };
  child.stdout.on('data', (chunk: Buffer) => (handle.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (handle.stderr += chunk.toString('utf8')));
  running.push(handle);
  return handle;
}

async function waitFor(handle: Cli, pattern: RegExp, timeoutMs = READY_TIMEOUT_MS): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(handle.stdout);
    if (match) return match;
    if (handle.child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} in:\n${handle.stdout}\n${handle.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every process whose parent chain leads to `pid` (Linux /proc; `ps` elsewhere). */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        parents.set(Number(entry), ppid);
      } catch {
        // the process ended while we looked
      }
    }
  } catch {
    const { stdout } = await promisify(execFile)('ps', ['-A', '-o', 'pid=,ppid=']);
    for (const line of stdout.trim().split('\n')) {
      const [child, parent] = line.trim().split(/\s+/).map(Number);
      if (child !== undefined && parent !== undefined) parents.set(child, parent);
    }
  }
  const found: number[] = [];
  for (const [child] of parents) {
    for (let up = parents.get(child); up !== undefined && up > 1; up = parents.get(up)) {
      if (up === pid) {
        found.push(child);
        break;
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a printed command line in a shell, as a user pasting it would. */
async function paste(commandLine: string): Promise<string> {
  const { stdout } = await promisify(execFile)('sh', ['-c', commandLine], { timeout: 10_000 });
  return stdout;
}

function isPlant(text: string): boolean {
  return addPlant?.response(200)?.validateBody?.(parseJson(text)).valid === true;
}

describe('plant-store start (npm start)', () => {
  it('brings up both, prints URLs, token and a curl for each that works, and Ctrl-C stops everything', async () => {
    const start = cli('start', '--port', '0', '--mock-port', '0', '--token', 'cli-token');
    const banner = (await waitFor(start, /Ctrl-C stops both\.\n/)).input ?? '';
    const referenceUrl = /reference implementation\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    const mockUrl = /mock \(Prism\)\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    const curls = [...banner.matchAll(/try:\s+(curl .*)$/gm)].map((m) => m[1] ?? '');
    expect(banner).toContain('token: cli-token');
    expect(curls).toEqual([expect.stringContaining(`${referenceUrl ?? '?'}/plants`), expect.stringContaining(`${mockUrl ?? '?'}/plants`)]);

    // CORS is on for both under start: a page's preflight is granted by the reference as by the mock.
    const preflights = await Promise.all([referenceUrl, mockUrl].map((url) => fetch(`${url ?? ''}/plants`, { method: 'OPTIONS', headers: { origin: 'http://page.test', 'access-control-request-method': 'POST' } })));
    expect(preflights.map((r) => r.status)).toEqual([204, 204]);

    const [fromReference, fromMock] = await Promise.all(curls.map(paste));
    expect(JSON.parse(fromReference ?? '')).toEqual({ name: 'Monstera', tag: 'tropical', id: 1 });
    expect(isPlant(fromMock ?? '')).toBe(true);
    await waitFor(start, /\[reference\] .* POST \/plants 200 /);
    await waitFor(start, /\[mock\] .* POST \/plants 200 /);

    const pid = start.child.pid ?? -1;
    const children = await descendants(pid);
    // Prism runs inside the process: there is no child to orphan.
    expect(children).toEqual([]);
    process.kill(-pid, 'SIGINT');
    expect(await start.exited).toEqual({ code: 0, signal: null });
    expect(children.filter(alive)).toEqual([]);
    expect(await Promise.all([referenceUrl, mockUrl].map((url) => connectOutcome(Number(new URL(url ?? '').port))))).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
  });

  it.each([
    ['the reference', ['--port', 'PORT', '--mock-port', '0'], '--port'],
    ['the mock', ['--port', '0', '--mock-port', 'PORT'], '--mock-port'],
  ])('says so and exits 2 when the port of %s is taken', async (_, args, flag) => {
    const { port, close } = await occupiedPort();
    try {
      const start = cli('start', ...args.map((a) => (a === 'PORT' ? String(port) : a)));
      expect(await start.exited).toEqual({ code: 2, signal: null });
      expect(start.stderr).toContain(`plant-store: port ${port} on 127.0.0.1 is already in use; pick another with ${flag}`);
      expect(start.stdout).not.toContain('is up');
    } finally {
      close();
    }
  });
});

describe('plant-store mock', () => {
  it('serves generated data from a seed, and stops on SIGTERM', async () => {
    const mock = cli('mock', '--port', '0', '--dynamic', '--seed', 'fern', '--quiet');
    const banner = (await waitFor(mock, /try:\s+(curl .*)\n/)).input ?? '';
    expect(banner).toContain('answering generated data (seed fern)');
    const curl = /try:\s+(curl .*)$/m.exec(banner)?.[1] ?? '';
    const [first, second] = [await paste(curl), await paste(curl)];
    expect(isPlant(first)).toBe(true);
    expect(second).toBe(first);
    process.kill(-(mock.child.pid ?? -1), 'SIGTERM');
    expect(await mock.exited).toEqual({ code: 0, signal: null });
  });

  it('keeps a journal curl can read and clear, and honours Prefer: delay and fault (the issue, as a new user tries it)', async () => {
    const mock = cli('mock', '--port', '0', '--quiet');
    const banner = (await waitFor(mock, /journal: .*\n/)).input ?? '';
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] ?? '';
    expect(banner).toContain(`journal: ${url}/__plant-store/ (live page; the last 100 requests as JSON at ${url}/__plant-store/requests)`);
    const send = `curl -sS -X POST ${url}/plants -H 'Authorization: Bearer any-token' -H 'Content-Type: application/json' -d '{"name":"Fern","id":1}'`;
    expect(isPlant(await paste(send))).toBe(true);
    const journal = JSON.parse(await paste(`curl -sS ${url}/__plant-store/requests`)) as { requests: { request: { method: string; body: { text: string } }; verdict: unknown }[] };
    expect(journal.requests.map(({ request, verdict }) => [request.method, request.body.text, verdict])).toEqual([['POST', '{"name":"Fern","id":1}', { outcome: 'accepted' }]]);
    expect(JSON.parse(await paste(`curl -sS -X DELETE ${url}/__plant-store/requests`))).toEqual({ cleared: 1 });
    expect(JSON.parse(await paste(`curl -sS ${url}/__plant-store/requests`))).toMatchObject({ held: 0, requests: [] });

    const [status, seconds] = (await paste(`${send} -o /dev/null -w '%{http_code} %{time_total}' -H 'Prefer: delay=300'`)).split(' ');
    expect(status).toBe('200');
    expect(Number(seconds)).toBeGreaterThanOrEqual(0.3);
    // curl's exit codes: 56 a receive failure (the reset), 1 or 8 a reply that is not HTTP.
    expect(await paste(`${send} -H 'Prefer: fault=reset' 2>&1; echo " exit=$?"`)).toMatch(/reset by peer[\s\S]* exit=56\n$/);
    expect(await paste(`${send} -H 'Prefer: fault=garbage' 2>&1; echo " exit=$?"`)).toMatch(/(HTTP\/0\.9|[Ww]eird server reply)[\s\S]* exit=(1|8)\n$/);
    // One it cannot honour is ignored (RFC 7240, section 2): the normal answer.
    expect(isPlant(await paste(`${send} -H 'Prefer: delay=soon, fault=explode'`))).toBe(true);
    expect(isPlant(await paste(send))).toBe(true);
    process.kill(-(mock.child.pid ?? -1), 'SIGTERM');
    expect(await mock.exited).toEqual({ code: 0, signal: null });
  });

  it('says so and exits 2 when its port is taken', async () => {
    const { port, close } = await occupiedPort();
    try {
      const mock = cli('mock', '--port', String(port));
      expect(await mock.exited).toEqual({ code: 2, signal: null });
      expect(mock.stderr).toContain(`port ${port} on 127.0.0.1 is already in use; pick another with --port`);
    } finally {
      close();
    }
  });

  it.each([
    [['--delay', '-5']],
    [['--delay', 'soon']],
    [['--seed', ' ']],
    [['--port', '70000']],
    [['--journal-size', '0']],
    [['--journal']],
  ])('refuses %j with exit 2', async (args) => {
    const mock = cli('mock', ...args);
    expect(await mock.exited).toEqual({ code: 2, signal: null });
    expect(mock.stderr).not.toBe('');
  });
});
