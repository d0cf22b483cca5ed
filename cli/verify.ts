/**
 * `plant-store verify`: Pact provider verification of any Plant Store implementation against the
 * consumer contracts - the kit's own (recorded for the run), pact files given with --pact, or a
 * Pact Broker's (PACT_BROKER_BASE_URL). Exit 0 when every interaction holds, 1 when one does not,
 * 2 on bad usage, an unreachable target, or a verification that could not run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { unreachable } from '../contracts/reachability.js';
import { DEFAULT_TIMEOUT_MS, pactSource, verifierOptions, VerifyConfigurationError, type PactSource, type VerifyFlags } from '../contracts/verifier-options.js';
import { isWellFormedToken } from '../src/http/index.js';
import { integerOption } from './options.js';
import { UsageError } from './serve.js';

interface VerifyCommandOptions {
  baseUrl: string;
  token?: string;
  pact?: string[];
  providerVersion?: string;
  providerBranch?: string;
  publish?: boolean;
  timeout: number;
}

function baseUrlOption(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an absolute http:// or https:// URL');
  return value;
}

function tokenOption(value: string): string {
  if (!isWellFormedToken(value)) throw new InvalidArgumentError('a bearer token is letters, digits and - . _ ~ + / (RFC 6750 b64token), optionally ending in =');
  return value;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function verifyCommand(): Command {
  return new Command('verify')
    .description('verify an implementation against the Pact consumer contracts (pact-js provider verification)')
    .requiredOption('--base-url <url>', 'the implementation to verify', baseUrlOption)
    .option('--token <token>', 'bearer token the implementation accepts; put into every request that carries credentials, never into a pact', tokenOption)
    .option('--pact <path>', 'a pact file or a directory of them (repeatable); default: the kit\'s consumer contract, recorded for this run', collect)
    .option('--provider-version <version>', 'with a broker: the version being verified (the commit); needed to publish results')
    .option('--provider-branch <branch>', 'with a broker: the provider\'s branch (adds the matchingBranch selector)')
    .option('--publish', 'with a broker: publish the verification results (also PACT_BROKER_PUBLISH_VERIFICATION_RESULTS=true)')
    .option('--timeout <ms>', 'how long to wait for each answer of the implementation', integerOption(1, 600_000), DEFAULT_TIMEOUT_MS)
    .addHelpText('after', `
Pacts come from, in this order:
  PACT_BROKER_BASE_URL set  the broker's pacts for provider "plant-store" (PACT_BROKER_TOKEN, or
                            PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD), selectors mainBranch,
                            matchingBranch (with --provider-branch) and deployedOrReleased; pending pacts on
  --pact <path>             those files
  otherwise                 the kit's consumer contract (contracts/consumer-contract.ts), recorded
                            into a temporary directory with Pact's mock server for this run
Without --token, requests carry the pact's example token (enough for a mock that accepts any).
Exit codes: 0 every interaction holds, 1 one does not (each failure is named with its mismatches),
2 bad usage, an unreachable target, or a verification that could not run.`)
    .action(async (options: VerifyCommandOptions) => {
      const flags: VerifyFlags = {
        baseUrl: options.baseUrl,
        ...(options.pact ? { pact: options.pact } : {}),
        ...(options.providerVersion === undefined ? {} : { providerVersion: options.providerVersion }),
        ...(options.providerBranch === undefined ? {} : { providerBranch: options.providerBranch }),
        ...(options.publish ? { publish: true } : {}),
        timeoutMs: options.timeout,
      };
      let source: PactSource;
      try {
        source = pactSource(flags, process.env);
        verifierOptions(flags, process.env);
      } catch (error) {
        if (error instanceof VerifyConfigurationError) throw new UsageError(error.message);
        throw error;
      }
      for (const path of options.pact ?? []) {
        if (!/^https?:\/\//.test(path) && !existsSync(path)) throw new UsageError(`--pact ${path}: no such file or directory`);
      }
      const why = await unreachable(options.baseUrl, options.timeout);
      if (why !== undefined) throw new UsageError(`cannot reach ${options.baseUrl}: ${why}`);

      // Before pact-js is loaded: no usage data leaves this machine (https://docs.pact.io/metrics).
      process.env.PACT_DO_NOT_TRACK = 'true';
      const verification = await import('../contracts/verification.js');

      let recordedIn: string | undefined;
      try {
        let pactUrls = options.pact ?? [];
        if (source === 'recorded') {
          const { recordPacts } = await import('../contracts/consumer-contract.js');
          recordedIn = mkdtempSync(join(tmpdir(), 'plant-store-pacts-'));
          pactUrls = [await recordPacts(recordedIn)];
        }
        let outcome: Awaited<ReturnType<typeof verification.runVerification>>;
        try {
          outcome = await verification.runVerification({ flags, token: options.token, pactUrls, env: process.env });
        } catch (error) {
          throw new UsageError(`the verification could not run: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (outcome.interactions === 0) {
          // Nothing was verified (no pact could be loaded, a broker unreachable, a filter matching
          // nothing): the implementation broke nothing, the run did not happen.
          const why = outcome.failures.flatMap((f) => [f.interaction, ...f.mismatches]).join('; ');
          throw new UsageError(`no interaction was verified${why ? `: ${why}` : ''}`);
        }
        process.stdout.write(verification.formatOutcome(outcome, options.baseUrl));
        if (!outcome.passed) process.exitCode = 1;
      } finally {
        if (recordedIn !== undefined) rmSync(recordedIn, { recursive: true, force: true });
      }
    });
}
