/**
 * `plant-store conform`: conformance-tests an implementation at any URL with requests generated
 * from openapi.yaml (fuzz/). Its outcome: held when the target kept the contract, broken when it
 * did not; a target out of reach surfaces as fuzz's TargetUnreachableError (outcome.ts maps it).
 */
import { writeFile } from 'node:fs/promises';
import { SingleBar } from 'cli-progress';
import { CHECK_NAMES, DEFAULT_CAPACITY, DEFAULT_CONCURRENCY, DEFAULT_MAX_RESPONSE_TIME_MS, DEFAULT_RUNS, DEFAULT_TIMEOUT_MS, formatReport, MEDIAN_FACTOR, runConformance, toHtml, toJUnit, type Progress, type Report } from '../fuzz/index.js';
import { defineCommand, type Io, type OptionValues } from './command.js';
import { baseUrl, contract, describeContract, flag, integer, junit, oneOf, option, timeout, token, withDefault } from './options.js';
import { BROKEN, HELD, usage, UsageError, type Outcome } from './outcome.js';

const CONFORM_OPTIONS = {
  baseUrl,
  contract,
  token,
  profile: withDefault(oneOf('--profile <profile>', 'reference: every check; mock: no echo, any well-formed token accepted', ['reference', 'mock']), 'reference'),
  runs: withDefault(option('--runs <n>', 'requests to generate (with --duration, the least)', integer(1, 1_000_000)), DEFAULT_RUNS),
  duration: option('--duration <seconds>', 'keep generating requests this long: an endurance run (--runs is then the least)', integer(1, 7 * 24 * 3600)),
  capacity: withDefault(option('--capacity <plants>', 'distinct plants to store before the random phase (0: none)', integer(0, 1_000_000)), DEFAULT_CAPACITY),
  maxResponseTime: withDefault(option('--max-response-time <ms>', `an answer slower than this and than ${MEDIAN_FACTOR} × the run's median response time is a failure`, integer(1, 600_000)), DEFAULT_MAX_RESPONSE_TIME_MS),
  seed: option('--seed <n>', 'the seed of a run to replay (printed by every run)', integer(0, 2 ** 31 - 1)),
  json: option('--json <file>', 'also write the report as JSON'),
  junit,
  html: option('--html <file>', 'also write the report as one self-contained HTML page (plots included)'),
  timeout: withDefault(timeout, DEFAULT_TIMEOUT_MS),
  concurrency: withDefault(option('--concurrency <n>', 'requests in flight at most', integer(1, 256)), DEFAULT_CONCURRENCY),
  strict: flag('--strict', 'warnings (hazards the contract allows) fail the run too'),
};

export type ConformOptions = OptionValues<typeof CONFORM_OPTIONS>;

/** CI systems set CI=true (GitHub Actions, GitLab, CircleCI, Travis...). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/** A progress bar on standard error when it is a terminal and not under CI; otherwise nothing. */
function progressBar(stream: NodeJS.WriteStream): { update: (progress: Progress) => void; stop: () => void } {
  if (!stream.isTTY || isCi()) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({ stream, format: '{bar} {value}/{total} {phase} | {findings} findings', hideCursor: true, clearOnComplete: true, barsize: 30 });
  let started = false;
  return {
    update: (progress) => {
      const payload = { phase: progress.phase === 'shrinking' ? 'findings shrunk' : `${progress.phase} requests`, findings: progress.findings };
      if (!started) {
        bar.start(progress.total, progress.done, payload);
        started = true;
      } else {
        bar.setTotal(progress.total);
        bar.update(progress.done, payload);
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/** A report file that cannot be written is the user's to fix (a directory that does not exist, say). */
export async function writeReportFile(flag: string, file: string | undefined, text: () => string): Promise<void> {
  if (file === undefined) return;
  try {
    await writeFile(file, text());
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot write the report: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function runConform(options: ConformOptions, io: Io): Promise<Outcome> {
  if (options.token === undefined && options.profile === 'reference') {
    return usage('conform needs a bearer token the target accepts: --token T (or PLANT_STORE_TOKENS); with --profile mock any token will do');
  }
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  // The seed first, so that a run that is stopped or crashes can still be replayed.
  const duration = options.duration === undefined ? '' : `, for ${options.duration} s at least`;
  io.out(`plant-store conform: ${options.baseUrl} (profile ${options.profile}, ${options.runs} runs${duration}, seed ${seed})\n  contract: ${describeContract(options.contract)}\n`);
  const bar = progressBar(process.stderr);
  let report: Report;
  try {
    report = await runConformance({
      baseUrl: options.baseUrl,
      contract: options.contract,
      ...(options.token === undefined ? {} : { token: options.token }),
      profile: options.profile,
      runs: options.runs,
      ...(options.duration === undefined ? {} : { durationMs: options.duration * 1000 }),
      capacity: options.capacity,
      maxResponseTimeMs: options.maxResponseTime,
      seed,
      timeoutMs: options.timeout,
      concurrency: options.concurrency,
      onProgress: bar.update,
    });
  } finally {
    bar.stop();
  }
  const strict = options.strict;
  io.out(formatReport(report, { strict }) + '\n');
  await writeReportFile('--json', options.json, () => JSON.stringify(report, null, 2) + '\n');
  await writeReportFile('--junit', options.junit, () => toJUnit(report, { strict }));
  await writeReportFile('--html', options.html, () => toHtml(report, { strict }));
  return report.passed && !(strict && report.warnings.length > 0) ? HELD : BROKEN;
}

export const conform = defineCommand({
  name: 'conform',
  description: 'conformance-test an implementation of POST /plants at any URL with requests generated from openapi.yaml',
  options: CONFORM_OPTIONS,
  help: `
Checks: ${CHECK_NAMES.join(', ')}.
Each finding is a failure (exit 1) or a warning: a hazard the contract allows, printed and reported,
failing the run only under --strict. Each is shown with a minimal request as a curl command that
reads the token from $TOKEN.
A progress bar is shown on a terminal, never under CI=true.
Exit codes: 0 the target kept the contract, 1 it broke it (or warned, under --strict), 2 bad usage or the
target could not be reached,
70 a defect of the kit (please report it).

Example:
  plant-store serve --port 3000 --token secret &
  plant-store conform --base-url http://127.0.0.1:3000 --token secret --junit conform.xml`,
  run: runConform,
});
