/**
 * What `plant-store proxy` does (its options and help are cli/proxy.ts). It runs until SIGINT or
 * SIGTERM, then prints the summary per check and writes it where asked; its outcome is broken when
 * some answer broke the contract, held otherwise.
 */
import { startProxy } from '../../api/index.js';
import { formatSummary, summaryToJUnit } from '../../proxy/index.js';
import { batchedLog } from '../../src/http/index.js';
import type { Io } from '../command.js';
import { describeContract } from '../describe-contract.js';
import { BROKEN, HELD, type Outcome } from '../outcome.js';
import type { ProxyCliOptions } from '../proxy.js';
import { writeReportFile } from './report-file.js';
import { clientCredentials } from '../options.js';
import { explainListenError, journalLine, untilSignal } from './serve.js';

export async function runProxy(options: ProxyCliOptions, io: Io): Promise<Outcome> {
  const { log, flush } = batchedLog(io.out);
  let proxy;
  try {
    proxy = await startProxy({
      upstream: options.upstream,
      port: options.port,
      host: options.host,
      tokens: options.token,
      credentials: clientCredentials(options.auth, options.contract),
      errors: options.errors,
      timeoutMs: options.timeout,
      journalSize: options.journalSize,
      admin: options.admin,
      linkedReads: options.linkedReads,
      contract: options.contract,
      ...(options.quiet ? {} : { log }),
    });
  } catch (error) {
    throw explainListenError(error, options, '--port');
  }
  const known = options.token.length;
  io.out(
    `Plant Store proxy listening on ${proxy.url}, forwarding to ${options.upstream}\n` +
      `  every answer is checked against ${describeContract(options.contract)}; Plant-Store-Violations names the checks it broke${options.errors ? ', and such an answer becomes a 502 Error' : ''}\n` +
      `  tokens: ${known === 0 ? 'none known; a token is judged as the upstream takes it (--token T tells the proxy one it accepts)' : `${known} known (--token): a 401 to one is a finding`}\n` +
      journalLine(proxy.url, { ...options, journal: true }) +
      `  Ctrl-C stops it and prints the summary per check\n`,
  );
  await untilSignal();
  await proxy.close();
  flush();
  const summary = proxy.summary();
  io.out(formatSummary(summary) + '\n');
  await writeReportFile('--report', options.report, () => JSON.stringify(summary, null, 2) + '\n');
  await writeReportFile('--junit', options.junit, () => summaryToJUnit(summary));
  return summary.passed ? HELD : BROKEN;
}
