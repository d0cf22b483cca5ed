/**
 * `plant-store proxy`: the checking proxy in front of a real implementation (proxy/). What it does
 * is cli/run/proxy.ts.
 */
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../proxy/index.js';
import { specifyCommand, type OptionValues } from './command.js';
import { absoluteHttpUrl, acceptedTokens, admin, clientAuth, contract, flag, host, journalSize, junit, option, port, quiet, required, timeout, withDefault } from './options.js';

const PROXY_OPTIONS = {
  contract,
  upstream: required(option('--upstream <url>', 'the implementation to check, e.g. http://127.0.0.1:3000 (a path prefix is kept)', absoluteHttpUrl)),
  port: withDefault(port, 4020),
  host,
  token: acceptedTokens,
  auth: clientAuth,
  errors: flag('--errors', 'replace an answer that breaks the contract with a 502 Error describing the violations'),
  report: option('--report <file>', 'on exit, write the summary per check as JSON'),
  junit,
  timeout: withDefault(timeout, DEFAULT_UPSTREAM_TIMEOUT_MS),
  journalSize,
  admin,
  /** commander reads `--no-linked-reads` as `linkedReads`, true unless the flag is given. */
  linkedReads: flag('--no-linked-reads', "judge every read on its own, not by what the proxy saw created, replaced or deleted before it (for a store that also changes behind the proxy's back)"),
  quiet,
};

export type ProxyCliOptions = OptionValues<typeof PROXY_OPTIONS>;

export const proxy = specifyCommand({
  name: 'proxy',
  description: 'forward to a real implementation of the contract (the bundled openapi.yaml, or --contract) and check every answer against it',
  options: PROXY_OPTIONS,
  help: `
Every request goes to --upstream unchanged and every answer comes back unchanged, plus a header
Plant-Store-Violations naming the checks it broke (absent when none) and Plant-Store-Warnings naming
those that only warned. With --errors an answer that broke the contract becomes a 502 Error.
One log line per exchange with findings goes to standard output (never a token). The last
--journal-size exchanges, each with the upstream's answer and the findings, are kept: GET
/__plant-store/requests reads them as JSON, DELETE clears them, /__plant-store/ is a live page
(--no-admin forwards /__plant-store/ to the upstream like any other path).
SIGINT or SIGTERM stop it and print the summary per check; --report and --junit write it to files.
Exit codes: 0 no answer broke the contract, 1 some did, 2 bad usage or a port in use,
70 a defect of the kit (please report it).

Example:
  plant-store serve --port 3000 --token secret &
  plant-store proxy --upstream http://127.0.0.1:3000 --token secret
  curl -i -X POST http://127.0.0.1:4020/plants -H 'Authorization: Bearer secret' \\
    -H 'Content-Type: application/json' -d '{"name":"Fern","id":1}'`,
});
