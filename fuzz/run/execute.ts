/** Sending a case: its setup requests, then itself, each judged by the exchange checks as its answer comes. */
import { performance } from 'node:perf_hooks';
import { keyFromAnswer, listedIn, nextPage, unresolvedReason, type RequestCase } from '../../oracle/index.js';
import type { HttpClient } from '../wire/http-client.js';
import type { ExchangeJudge, LateBytesJudge } from './late-bytes.js';
import type { RunExchange } from './tally.js';

export class Executor {
  constructor(
    private readonly client: HttpClient,
    private readonly judge: ExchangeJudge,
    private readonly late: LateBytesJudge,
    /** When the run began (performance.now()). */
    private readonly started: number,
  ) {}

  /** One request, judged. */
  async exchange(request: RequestCase, fresh: boolean): Promise<RunExchange> {
    const startedMs = performance.now() - this.started;
    const outcome = await this.client.send(request, fresh ? { fresh } : {});
    return { request, outcome, findings: this.judge(request, outcome), startedMs, fresh };
  }

  /**
   * A case: its setup requests, then the request, one after the other; a key the server assigned
   * filled in from the answer that gave it; a list's next pages followed until the item is found.
   */
  async execute(request: RequestCase, fresh = false): Promise<RunExchange[]> {
    const exchanges: RunExchange[] = [];
    for (const step of [...request.setup, request]) await this.send(filled(step, exchanges), exchanges, fresh);
    for (let next = followed(exchanges.at(-1)); next !== undefined; next = followed(exchanges.at(-1))) await this.send(next, exchanges, fresh);
    return exchanges;
  }

  private async send(step: RequestCase, exchanges: RunExchange[], fresh: boolean): Promise<void> {
    const sent = await this.exchange(step, fresh);
    this.late.sent(sent.outcome, exchanges, exchanges.length);
    exchanges.push(sent);
  }
}

/** A step with the keys its bindings name taken from the answers before it (a key the server assigns); where one cannot be, its link says why. */
function filled(step: RequestCase, exchanges: readonly RunExchange[]): RequestCase {
  if (step.bindings === undefined) return step;
  let path = step.path;
  let key = step.link?.key;
  let unresolved: string | undefined;
  for (const binding of step.bindings) {
    const outcome = exchanges[binding.step]?.outcome;
    const value = keyFromAnswer(binding, outcome);
    if (value === undefined) unresolved ??= unresolvedReason(binding, outcome);
    const text = value ?? binding.placeholder;
    path = path.split(binding.placeholder).join(encodeURIComponent(text));
    if (key !== undefined) key = { ...key, text: key.text.split(binding.placeholder).join(text) };
  }
  // Filled: the request is sent, reported and replayed as it is now, its bindings done.
  const rest = Object.fromEntries(Object.entries(step).filter(([name]) => name !== 'bindings')) as unknown as RequestCase;
  return { ...rest, path, ...(step.link === undefined ? {} : { link: { ...step.link, ...(key === undefined ? {} : { key }), ...(unresolved === undefined ? {} : { unresolved }) } }) };
}

/** The next page of a list that did not hold the item created, within the pages the engine follows. */
function followed(last: RunExchange | undefined): RequestCase | undefined {
  const link = last?.request.link;
  if (last === undefined) return undefined;
  if (link?.expects !== 'listed' || link.key === undefined || link.unresolved !== undefined) return undefined;
  const page = link.page ?? 1;
  if (page >= (link.pages ?? 1) || listedIn(last.outcome, link.key) !== false) return undefined;
  const path = nextPage(last.outcome, last.request.path);
  return path === undefined ? undefined : { ...last.request, path, variant: `page ${page + 1} of the list after a create`, link: { ...link, page: page + 1 } };
}
