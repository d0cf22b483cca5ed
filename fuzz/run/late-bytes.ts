/**
 * Late bytes: bytes a connection got after an exchange's outcome was handed on (a second answer,
 * the rest of a body) belong to that exchange. It is judged again with them, and what the new
 * judgement adds is counted - by the tally, once the case is recorded, or with it when it is.
 */
import type { Finding, HttpOutcome, RequestCase } from '../../oracle/index.js';
import type { LateBytes } from '../wire/http-client.js';
import type { RunExchange, Place, Tally } from './tally.js';

/** Runs the exchange checks on one exchange. */
export type ExchangeJudge = (request: RequestCase, outcome: HttpOutcome) => Finding[];

export class LateBytesJudge {
  /** Where each outcome's exchange sits in its case. */
  private readonly places = new WeakMap<HttpOutcome, { readonly exchanges: RunExchange[]; readonly at: number }>();
  /** Where each case was recorded. */
  private readonly recorded = new WeakMap<readonly RunExchange[], Place>();

  constructor(
    private readonly judge: ExchangeJudge,
    private readonly tally: Tally,
  ) {}

  /** An exchange was sent, the `at`-th of its case. */
  sent(outcome: HttpOutcome, exchanges: RunExchange[], at: number): void {
    this.places.set(outcome, { exchanges, at });
  }

  /** A case's exchanges were recorded: late findings are counted from now on. */
  recordedAt(exchanges: readonly RunExchange[], place: Place): void {
    this.recorded.set(exchanges, place);
  }

  /** The client's report of late bytes: the exchange judged again, its new findings added to it (and counted once recorded). */
  onLateBytes({ after, outcome }: LateBytes): void {
    const place = this.places.get(after);
    const exchange = place?.exchanges[place.at];
    if (place === undefined || exchange === undefined) return;
    const added = this.judge(exchange.request, outcome).filter((f) => !exchange.findings.some((g) => g.check === f.check && g.severity === f.severity));
    if (added.length === 0) return;
    place.exchanges[place.at] = { ...exchange, outcome, findings: [...exchange.findings, ...added] };
    // Not recorded yet: the tally counts them with the rest.
    const where = this.recorded.get(place.exchanges);
    if (where !== undefined) this.tally.countFindings(added, { ...where, exchanges: place.exchanges });
  }
}
