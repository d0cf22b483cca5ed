/**
 * A reader that closes the pipe early (`plant-store serve --help | head -2`): the built command,
 * spawned over real pipes whose reading end this test closes, ends quietly with the code of its
 * own outcome (cli/command.ts says why that code and not 0 or 141), never with a crash (70) and
 * an EPIPE stack trace.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { TEST_TOKEN } from '../support/servers.js';
import { failingTargetForTheseTests } from './failing-target.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface ClosedRun {
  readonly code: number | null;
  /** What the command wrote before its reader left (closed after the first chunk), else ''. */
  readonly firstChunk: string;
  /** Everything written to the stream left open. */
  readonly open: string;
}

/**
 * Runs the built command with `closed` (stdout or stderr) read by nobody: its reading end is
 * closed at once (before the kit has loaded, so its first write meets EPIPE) or after the first
 * chunk arrives (the writes after it meet EPIPE).
 */
async function runWithReaderGone(args: readonly string[], closed: 'stdout' | 'stderr', when: 'at once' | 'after the first chunk'): Promise<ClosedRun> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'plant-store.js'), ...args], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const gone = closed === 'stdout' ? child.stdout : child.stderr;
  const kept = closed === 'stdout' ? child.stderr : child.stdout;
  let firstChunk = '';
  let open = '';
  kept.setEncoding('utf8').on('data', (chunk: string) => (open += chunk));
  if (when === 'at once') gone.destroy();
  else
    gone.setEncoding('utf8').once('data', (chunk: string) => {
      firstChunk = chunk;
      gone.destroy();
    });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, firstChunk, open };
}

describe('the command line when its reader closes the pipe early', () => {
  const failing = failingTargetForTheseTests();

  it.concurrent.for(['--help', 'serve --help'])('`plant-store %s | head -0` exits 0 and says nothing on stderr', async (command, { expect }) => {
    const run = await runWithReaderGone(command.split(' '), 'stdout', 'at once');
    expect(run).toEqual({ code: 0, firstChunk: '', open: '' });
  });

  it.concurrent('conform whose reader left after the first line still exits with its verdict (1), quietly', async ({ expect }) => {
    const run = await runWithReaderGone(['conform', '--base-url', failing().url, '--token', TEST_TOKEN, '--runs', '50', '--seed', '1'], 'stdout', 'after the first chunk');
    // The report came after the reader left: the write that met EPIPE was the kit's, not the header's.
    expect(run.firstChunk).toMatch(/^plant-store conform: \S+ \(profile [^)]*\)\n {2}contract: [^\n]+\n$/);
    expect(run.open).toBe('');
    expect(run.code).toBe(1);
  });

  it.concurrent('a usage error whose stderr nobody reads exits 2, with nothing on stdout', async ({ expect }) => {
    const run = await runWithReaderGone(['serve', '--port', 'abc'], 'stderr', 'at once');
    expect(run).toEqual({ code: 2, firstChunk: '', open: '' });
  });
});
