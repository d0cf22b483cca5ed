/** One exchange on a connection, as the client follows it, and the exchanges in flight beside it. */
import type { ResponseReader } from './http-wire.js';
import type { HttpOutcome, HttpRequest, NeighbourRequest } from '../../oracle/index.js';

/** Neighbouring requests kept per exchange (a slow exchange overlaps many). */
const MAX_OTHERS = 256;

/** An outcome, or 'retry': the request goes again on a new connection (the old one was not the target's fault). */
export type Result = HttpOutcome | 'retry';

export interface InFlightExchange {
  readonly request: HttpRequest;
  readonly connection: number;
  readonly reader: ResponseReader;
  readonly started: number;
  /** The requests whose answer this one's could have been instead. */
  readonly others: NeighbourRequest[];
  /** The deadline of the exchange; once the answer is complete, of the wait for the server's close (`awaitsClose`). */
  timer: NodeJS.Timeout;
  /**
   * The request said `Connection: close` and the client waits for the server to close after its
   * answer (RFC 9112, section 9.6), within the exchange's timeout: the `framing` kind's requests.
   */
  readonly awaitsClose: boolean;
  /** Keep the (fresh) connection open after the answer, for a request sent second on it. */
  readonly keep?: boolean;
  /** Set when the client stopped waiting for that close: how long after the answer. */
  leftOpenMs?: number;
  readonly resolve: (result: Result) => void;
  /** When the answer was complete. */
  endedAt?: number;
  /** Bytes after the answer, while it settled. */
  extra: Buffer[];
  extraAt?: number;
  settled: boolean;
  /** On a reused connection, until the end of the request's head is sent: bytes now cannot answer it. */
  holding: boolean;
  early: Buffer[];
}

/** The exchanges in flight: each is told of the others, which could have got its answer. */
export class InFlightExchanges {
  private readonly active = new Set<InFlightExchange>();

  join(exchange: InFlightExchange): void {
    for (const other of this.active) {
      if (exchange.others.length < MAX_OTHERS) exchange.others.push({ request: other.request, relation: 'concurrent', connection: other.connection });
      if (other.others.length < MAX_OTHERS) other.others.push({ request: exchange.request, relation: 'concurrent', connection: exchange.connection });
    }
    this.active.add(exchange);
  }

  leave(exchange: InFlightExchange): void {
    this.active.delete(exchange);
  }
}
