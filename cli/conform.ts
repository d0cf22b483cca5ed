/**
 * `plant-store conform`: conformance-tests an implementation at any URL with requests generated
 * from openapi.yaml (fuzz/). Exit codes (docs/DESIGN.md): 0 the target kept the contract, 1 it broke
 * it, 2 bad usage or the target could not be reached.
 */
import { writeFile } from 'node:fs/promises';
import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  CHECK_NAMES,
  DEFAULT_CONCURRENCY,
  DEFAULT_RUNS,
  DEFAULT_TIMEOUT_MS,
  formatReport,
  parseBaseUrl,
  runConformance,
  TargetUnreachableError,
  toJUnit,
  type Profile,
  type Progress,
  type Report,
} from '../fuzz/index.js';
import { isWellFormedToken } from '../src/http/index.js';
import { integerOption, tokensFromEnv } from './options.js';
import { UsageError } from './serve.js';

export interface ConformOptions {
  baseUrl: string;
  token?: string;
  profile: Profile;
  runs: number;
  seed?: number;
  json?: string;
  junit?: string;
  timeout: number;
  concurrency: number;
}

function tokenOption(value: string): string {
  if (!isWellFormedToken(value)) throw new InvalidArgumentError('a bearer token is letters, digits and - . _ ~ + / (RFC 6750 b64token), optionally ending in =');
  return value;
}

function baseUrlOption(value: string): string {
  try {
    return parseBaseUrl(value).href;
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

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

export async function conform(options: ConformOptions, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WriteStream = process.stderr): Promise<Report> {
  const token = options.token ?? tokensFromEnv()[0];
  if (token === undefined && options.profile === 'reference') {
    throw new UsageError('conform needs a bearer token the target accepts: --token T (or PLANT_STORE_TOKENS); with --profile mock any token will do');
  }
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  // The seed first, so that a run that is stopped or crashes can still be replayed.
  out.write(`plant-store conform: ${options.baseUrl} (profile ${options.profile}, ${options.runs} runs, seed ${seed})\n`);
  const bar = progressBar(err);
  let report: Report;
  try {
    report = await runConformance({
      baseUrl: options.baseUrl,
      ...(token === undefined ? {} : { token }),
      profile: options.profile,
      runs: options.runs,
      seed,
      timeoutMs: options.timeout,
      concurrency: options.concurrency,
      onProgress: bar.update,
    });
  } catch (error) {
    if (error instanceof TargetUnreachableError) throw new UsageError(`${error.message}; is it running?`);
    throw error;
  } finally {
    bar.stop();
  }
  out.write(formatReport(report) + '\n');
  if (options.json !== undefined) await writeFile(options.json, JSON.stringify(report, null, 2) + '\n');
  if (options.junit !== undefined) await writeFile(options.junit, toJUnit(report));
  if (!report.passed) process.exitCode = 1;
  return report;
}

export function conformCommand(): Command {
  return new Command('conform')
    .description('conformance-test an implementation of POST /plants at any URL with requests generated from openapi.yaml')
    .requiredOption('--base-url <url>', 'where the implementation listens, e.g. http://127.0.0.1:3000', baseUrlOption)
    .option('--token <token>', 'a bearer token the target accepts (default: the first of PLANT_STORE_TOKENS)', tokenOption)
    .addOption(new Option('--profile <profile>', 'reference: every check; mock: no echo, any well-formed token accepted').choices(['reference', 'mock']).default('reference'))
    .option('--runs <n>', 'requests to generate', integerOption(1, 1_000_000), DEFAULT_RUNS)
    .option('--seed <n>', 'the seed of a run to replay (printed by every run)', integerOption(0, 2 ** 31 - 1))
    .option('--json <file>', 'also write the report as JSON')
    .option('--junit <file>', 'also write the report as JUnit XML')
    .option('--timeout <ms>', 'deadline for each request', integerOption(1, 600_000), DEFAULT_TIMEOUT_MS)
    .option('--concurrency <n>', 'requests in flight at most', integerOption(1, 256), DEFAULT_CONCURRENCY)
    .addHelpText(
      'after',
      `
Checks: ${CHECK_NAMES.join(', ')}.
Each failure is shrunk to a minimal request and printed as a curl command that reads the token from $TOKEN.
A progress bar is shown on a terminal, never under CI=true.
Exit codes: 0 the target kept the contract, 1 it broke it, 2 bad usage or the target could not be reached.

Example:
  plant-store serve --port 3000 --token secret &
  plant-store conform --base-url http://127.0.0.1:3000 --token secret --junit conform.xml`,
    )
    .action(async (options: ConformOptions) => {
      await conform(options);
    });
}
