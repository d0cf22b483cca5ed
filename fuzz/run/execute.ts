/** Sending a case: its setup requests, then itself, each judged by the exchange checks as its answer comes. */
import { performance } from 'node:perf_hooks';
import type { RequestCase } from '../../oracle/index.js';
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

  /** A case: its setup requests, then the request, one after the other. */
  async execute(request: RequestCase, fresh = false): Promise<RunExchange[]> {
    const exchanges: RunExchange[] = [];
    for (const step of [...request.setup, request]) {
      const sent = await this.exchange(step, fresh);
      this.late.sent(sent.outcome, exchanges, exchanges.length);
      exchanges.push(sent);
    }
    return exchanges;
  }
}
