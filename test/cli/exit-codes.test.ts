/**
 * The exit codes of `plant-store`: the one mapping from what a command ends with to the process's
 * code (cli/outcome.ts), then each code reached by the built command in a real process. A crash
 * of the kit is made real by preloading a module (node --import) that breaks node:net the way a
 * defect would: the kit itself has no switch for it.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CommanderError, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS, EXIT_CODES, exitCode, explain, HELD, BROKEN, outcomeOf, settle, UsageError, type Outcome } from '../../cli/outcome.js';
import { kitVersion } from '../../cli/version.js';
import { VerifyConfigurationError } from '../../contracts/verifier-options.js';
import { TargetUnreachableError } from '../../fuzz/index.js';
import { runCli } from '../conformance/common.js';
import { TEST_TOKEN } from '../support/servers.js';
import { failingTargetForTheseTests } from './failing-target.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The code and the standard error of a thrown value, as main settles it. */
function settled(thrown: unknown): { code: number; stderr: string } {
  let stderr = '';
  const code = settle(outcomeOf(thrown), (text) => (stderr += text));
  return { code, stderr };
}

describe('the one mapping from outcomes and errors to exit codes', () => {
  it('keeps 0, 1, 2 and the crash code apart; the crash code is none of the verdicts', () => {
    expect(EXIT_CODES).toEqual({ held: 0, broken: 1, usage: 2, unreachable: 2, crash: 70 });
    expect(EXIT_CODE_MEANINGS.map(([code]) => code)).toEqual([0, 1, 2, 70]);
  });

  it.for<[string, Outcome, number]>([
    ['held', HELD, 0],
    ['broken', BROKEN, 1],
  ])('a command that returns %s exits %i and prints nothing', ([, outcome, code]) => {
    expect(exitCode(outcome)).toBe(code);
    expect(explain(outcome)).toBe('');
  });

  it.for<[string, unknown, number, string]>([
    ['a UsageError', new UsageError('port 3000 on 127.0.0.1 is already in use'), 2, 'plant-store: port 3000 on 127.0.0.1 is already in use\n'],
    ['a VerifyConfigurationError', new VerifyConfigurationError('publishing needs a broker'), 2, 'plant-store: publishing needs a broker\n'],
    ['an InvalidArgumentError thrown outside parsing (nobody printed it)', new InvalidArgumentError('expected a whole number'), 2, 'plant-store: expected a whole number\n'],
    ['a CommanderError of a bad option (commander printed it)', new CommanderError(1, 'commander.unknownOption', "error: unknown option '--bogus'"), 2, ''],
    ['commander after --help', new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), 0, ''],
    ['a TargetUnreachableError', new TargetUnreachableError('cannot reach http://127.0.0.1:1: ECONNREFUSED'), 2, 'plant-store: cannot reach http://127.0.0.1:1: ECONNREFUSED; is it running?\n'],
  ])('%s exits %i', ([, thrown, code, stderr]) => {
    expect(settled(thrown)).toEqual({ code, stderr });
  });

  it.for<[string, unknown, RegExp]>([
    ['a TypeError', new TypeError('cannot read properties of undefined'), /^TypeError: cannot read properties of undefined\n {4}at /m],
    ['an error with a cause', new Error('the run failed', { cause: new RangeError('seed out of range') }), /\[cause\]: RangeError: seed out of range/],
    ['an errno error', Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }), /code: 'EACCES'/],
    ['a thrown string', 'not an error', /'not an error'/],
    ['undefined', undefined, /^undefined$/m],
  ])('anything else is a crash of the kit (exit 70), asking for a report, with the stack: %s', ([, thrown, detail]) => {
    const { code, stderr } = settled(thrown);
    expect(code).toBe(70);
    expect(stderr).toMatch(/^plant-store: internal error\. This is a defect of Plant Store Kit, not a problem with your command or the target\.\nPlease report it/);
    expect(stderr).toContain(`plant-store-kit ${kitVersion()}, Node.js ${process.version}`);
    expect(stderr).toMatch(detail);
  });
});

/** A preload that breaks node:net: listen throws, as a defect below the kit's servers would. */
const LISTEN_THROWS = `import { Server } from 'node:net';
Server.prototype.listen = function () { throw new TypeError('injected defect: listen'); };`;

/** A preload that lets the server come up, then fails in a timer, where no command can catch it. */
function failsWhileServing(how: 'throw' | 'reject'): string {
  const failure = how === 'throw' ? "throw new Error('injected defect: a handler threw')" : "void Promise.reject(new Error('injected defect: nobody awaited'))";
  return `import { Server } from 'node:net';
const listen = Server.prototype.listen;
Server.prototype.listen = function (...args) {
  this.once('listening', () => setTimeout(() => { ${failure}; }, 100));
  return listen.apply(this, args);
};`;
}

const preload = (source: string): string[] => ['--import', `data:text/javascript,${encodeURIComponent(source)}`];

describe('each exit code, reached by the built command in a real process', () => {
  const failing = failingTargetForTheseTests();

  it.concurrent('0: --help', async ({ expect }) => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Exit codes:\n  0   all held\n  1   the target broke the contract (or a pact)\n  2   bad usage, or the target could not be reached\n  70  a defect of the kit itself');
  });

  it.concurrent('1: conform against a target that breaks the contract', async ({ expect }) => {
    const run = await runCli(['conform', '--base-url', failing().url, '--token', TEST_TOKEN, '--runs', '20', '--seed', '1']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^FAILED no-server-error/m);
    expect(run.stderr).toBe('');
  });

  it.concurrent('2: a value an option refuses', async ({ expect }) => {
    const run = await runCli(['serve', '--port', 'abc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: option '--port <port>' argument 'abc' is invalid. expected a whole number from 0 to 65535\n(run with --help for usage)\n");
  });

  it.concurrent('2: a report file that cannot be written, after the run', async ({ expect }) => {
    const run = await runCli(['conform', '--base-url', failing().url, '--token', TEST_TOKEN, '--runs', '5', '--seed', '1', '--json', join(ROOT, 'no-such-directory', 'report.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^plant-store: --json \S+report\.json: cannot write the report: ENOENT/);
  });

  it.concurrent('70: a defect inside a command (listen throws a TypeError)', async ({ expect }) => {
    const run = await runCli(['serve', '--port', '0', '--token', TEST_TOKEN], { nodeArgs: preload(LISTEN_THROWS) });
    expect(run.code).toBe(70);
    expect(run.stderr).toMatch(/^plant-store: internal error\. This is a defect of Plant Store Kit/);
    expect(run.stderr).toContain('Please report it');
    expect(run.stderr).toMatch(/TypeError: injected defect: listen\n {4}at /);
  });

  it.concurrent.for([
    ['an exception thrown in a timer', 'throw', 'injected defect: a handler threw'],
    ['a promise rejected with nobody waiting', 'reject', 'injected defect: nobody awaited'],
  ] as const)('70, not 1, for a defect outside any command while serving: %s', async ([, how, message], { expect }) => {
    const run = await runCli(['serve', '--port', '0', '--token', TEST_TOKEN], { nodeArgs: preload(failsWhileServing(how)) });
    expect(run.stdout).toContain('listening on');
    expect(run.code).toBe(70);
    expect(run.stderr).toMatch(/^plant-store: internal error\. This is a defect of Plant Store Kit/);
    expect(run.stderr).toContain(`Error: ${message}`);
  });

  it.concurrent('70 when the kit cannot even load (the command without its dist/)', async ({ expect }) => {
    const dir = await mkdtemp(join(tmpdir(), 'plant-store-unbuilt-'));
    try {
      await mkdir(join(dir, 'bin'));
      await copyFile(join(ROOT, 'bin', 'plant-store.js'), join(dir, 'bin', 'plant-store.js'));
      const error = await promisify(execFile)(process.execPath, [join(dir, 'bin', 'plant-store.js'), '--help']).then(
        () => undefined,
        (failed: unknown) => failed as { code: number; stderr: string },
      );
      expect(error?.code).toBe(70);
      expect(error?.stderr).toMatch(/^plant-store: the kit cannot load \(is dist\/ built\? run `npm run build`\)/);
      expect(error?.stderr).toContain('ERR_MODULE_NOT_FOUND');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
