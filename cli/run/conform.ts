/**
 * What `plant-store conform` does (its options and help are cli/conform.ts): the engine's run, its
 * reports. Its outcome: held when the target kept the contract, broken when it did not; a target
 * out of reach surfaces as fuzz's TargetUnreachableError (outcome.ts maps it).
 */
import { SingleBar } from 'cli-progress';
import { formatReport, runConformance, toHtml, toJUnit, type Progress, type Report } from '../../fuzz/index.js';
import type { Io } from '../command.js';
import type { ConformOptions } from '../conform.js';
import { describeContract } from '../describe-contract.js';
import { BROKEN, HELD, usage, type Outcome } from '../outcome.js';
import { writeReportFile } from './report-file.js';
import { clientCredentials } from '../options.js';

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

export async function runConform(options: ConformOptions, io: Io): Promise<Outcome> {
  const credentials = clientCredentials(options.auth, options.contract);
  if (options.token === undefined && options.profile === 'reference' && Object.keys(credentials).length === 0) {
    return usage('conform needs a bearer token the target accepts: --token T (or PLANT_STORE_TOKENS), or credentials per scheme: --auth <scheme>=<value> (or PLANT_STORE_AUTH_<SCHEME>); with --profile mock any token will do');
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
      credentials,
      headers: options.header,
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
