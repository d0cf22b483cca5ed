/**
 * `echo`: the success body is the plant that was sent. Derived from the schemas: every property
 * the request sent comes back exactly where the response schema declares it (name, tag), or where
 * the answer has it anyway (id); every property the response schema declares that the request
 * could carry but did not is absent - a plant is stored as sent, and a repeated id replaces the
 * stored plant rather than merging with it (decision 2), so a tag sent before does not survive a
 * request without one. A server may add properties the request schema does not have.
 * Not under the `mock` profile: a mock does not store what it was sent. An answer that carries
 * another request's plant is `one-answer-per-request`'s finding, not this one's. A body whose
 * meaning is left open (duplicate names) must come back as one of its readings, not a mix; a
 * write in flight with others of the same resource as one of those writes, not a mix.
 */
import { exchangeCheck, failure, warning } from '../check.js';
import { echoDifferences, misdelivered, type EchoDifference } from '../echo-differences.js';
import { firstDifference, show } from '../json-values.js';
import { describeRequest } from '../messages.js';
import type { RequestCase, ResponseOutcome } from '../types.js';
import type { Contract } from '../../src/openapi/index.js';

/**
 * The bodies the answer may show: one of the readings of a body whose meaning is left open
 * (RequestCase.open), or this write or one of its rivals in flight with it (RequestCase.rivals).
 */
function candidates(request: RequestCase): readonly Uint8Array[] {
  return request.open?.readings ?? [request.body, ...(request.rivals ?? [])];
}

/** None of the differences when the answer is one of the candidates; otherwise the differences from the first. */
function differencesFromCandidates(contract: Contract, request: RequestCase, outcome: ResponseOutcome): EchoDifference[] | undefined {
  const each = candidates(request).map((body) => echoDifferences(contract, body === request.body ? request : { ...request, body }, outcome));
  if (each.some((differences) => differences?.length === 0)) return [];
  return each[0];
}

/** Why the answer had a choice, for the message. */
function choice(request: RequestCase): string {
  if (request.open !== undefined) return `, and the answer is none of the readings of the body (${request.open.reason})`;
  if (request.rivals !== undefined) return `, and the answer is none of the ${request.rivals.length + 1} writes of this resource in flight together (a mix of them)`;
  return '';
}

function describe(difference: EchoDifference): string {
  const { key, sent, got } = difference;
  if (sent === undefined) return `${key} was not sent, so the plant has none (a repeated id replaces the stored plant, decision 2), but it came back as ${show(got)}`;
  const detail = typeof sent === 'string' && typeof got === 'string' ? firstDifference(sent, got) : '';
  return `${key} was sent as ${show(sent)} but came back as ${show(got)}${detail}`;
}

export const echo = exchangeCheck({
  name: 'echo',
  description:
    'the 200 Plant is what was sent: name and tag exactly, the id where present as the same integer (1e2 is 100; the string of its digits is accepted, a rounded number is not), and no tag when none was sent (a repeated id replaces the plant, decision 2); of writes of one id in flight together, one of them, never a mix',
  skippedUnder: { mock: 'a mock stores nothing, so it cannot answer with what was sent' },
  applies: (request, outcome, { profile }) => profile !== 'mock' && request.content === 'valid' && request.credentials === 'valid' && outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300,
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const differences = differencesFromCandidates(contract, request, outcome);
    if (differences === undefined || differences.length === 0 || misdelivered(contract, request, outcome) !== undefined) return [];
    return differences.map((difference) => {
      const message = `${describe(difference)}${choice(request)}; ${describeRequest(request)}`;
      // A leniency about refusal (or the target) only leaves nothing open once the request is accepted.
      return request.lenient === undefined || request.lenientAbout !== undefined ? failure(message) : warning(`${message} (allowed: ${request.lenient})`);
    });
  },
});
