/**
 * What `plant-store verify` does (its options and help are cli/verify.ts). Its outcome: held when
 * every interaction holds, broken when one does not; bad usage, an unreachable target or a
 * verification that could not run are exit 2 (outcome.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConsumerContract, loadConsumerData, loadPactLint, loadVerification, pactSource, verifierOptions, whyUnreachable, type VerifyFlags } from '../../contracts/index.js';
import type { Io } from '../command.js';
import { describeContract } from '../describe-contract.js';
import { BROKEN, HELD, unreachable, usage, type Outcome } from '../outcome.js';
import type { VerifyOptions } from '../verify.js';
import { clientCredentials } from '../options.js';
import { loadContract } from '../../src/openapi/index.js';

/** What is wrong with the options before any target is asked: --contract with a broker or with no consumer contract in it, a missing pact file. */
async function badUsage(options: VerifyOptions, source: ReturnType<typeof pactSource>): Promise<string | undefined> {
  if (options.contract !== undefined && source === 'broker') return "--contract lints pact files: give them with --pact (a broker's pacts are not linted)";
  if (source === 'recorded' && options.contract !== undefined) {
    const { noConsumerContract } = await loadConsumerData();
    const why = noConsumerContract(options.contract);
    if (why !== undefined) return `--contract: ${why}; give the pacts with --pact`;
  }
  for (const path of options.pact ?? []) {
    if (!/^https?:\/\//.test(path) && !existsSync(path)) return `--pact ${path}: no such file or directory`;
  }
  return undefined;
}

export async function runVerify(options: VerifyOptions, io: Io): Promise<Outcome> {
  const flags: VerifyFlags = {
    baseUrl: options.baseUrl,
    ...(options.pact ? { pact: options.pact } : {}),
    ...(options.providerVersion === undefined ? {} : { providerVersion: options.providerVersion }),
    ...(options.providerBranch === undefined ? {} : { providerBranch: options.providerBranch }),
    ...(options.publish ? { publish: true } : {}),
    timeoutMs: options.timeout,
  };
  // A flag or variable that contradicts another throws VerifyConfigurationError: bad usage.
  const source = pactSource(flags, process.env);
  verifierOptions(flags, process.env);
  const problem = await badUsage(options, source);
  if (problem !== undefined) return usage(problem);
  const why = await whyUnreachable(options.baseUrl, options.timeout);
  if (why !== undefined) return unreachable(`cannot reach ${options.baseUrl}: ${why}`);

  // Before pact-js is loaded: no usage data leaves this machine (https://docs.pact.io/metrics).
  process.env.PACT_DO_NOT_TRACK = 'true';
  const verification = await loadVerification();

  let recordedIn: string | undefined;
  try {
    let pactUrls = options.pact ?? [];
    if (source === 'recorded') {
      const { recordPacts } = await loadConsumerContract();
      recordedIn = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
      pactUrls = [await recordPacts(recordedIn, options.contract)];
    }
    if (options.contract !== undefined) {
      const { formatFindings, lintPactFiles, pactFiles } = await loadPactLint();
      // A pact at a URL is verified as it is; only files on this machine are linted.
      const findings = lintPactFiles(pactUrls.filter((path) => !/^https?:\/\//.test(path)).flatMap(pactFiles), options.contract);
      if (findings.length > 0) {
        io.out(`The pacts ask for what ${describeContract(options.contract)} does not allow:\n${formatFindings(findings)}\n`);
        return BROKEN;
      }
    }
    let outcome: Awaited<ReturnType<typeof verification.runVerification>>;
    try {
      outcome = await verification.runVerification({
        flags,
        token: options.token,
        pactUrls,
        env: process.env,
        credentials: clientCredentials(options.auth, options.contract ?? loadContract()),
        headers: options.header,
        ...(options.contract === undefined ? {} : { contract: options.contract }),
      });
    } catch (error) {
      return usage(`the verification could not run: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (outcome.interactions === 0) {
      // Nothing was verified (no pact could be loaded, a broker unreachable, a filter matching
      // nothing): the implementation broke nothing, the run did not happen.
      const why = outcome.failures.flatMap((f) => [f.interaction, ...f.mismatches]).join('; ');
      return usage(`no interaction was verified${why ? `: ${why}` : ''}`);
    }
    io.out(verification.formatOutcome(outcome, options.baseUrl));
    // What the recorded consumer contract could not hold, per operation (multipart, binary, XML): never taken for verified.
    if (source === 'recorded' && options.contract !== undefined) {
      const { formatNotes, mediaExchanges } = await loadConsumerData();
      io.out(formatNotes(mediaExchanges(options.contract).notes));
    }
    return outcome.passed ? HELD : BROKEN;
  } finally {
    if (recordedIn !== undefined) rmSync(recordedIn, { recursive: true, force: true });
  }
}
