/**
 * Faulty Plant Stores about JSON texts (RFC 8259) and the challenge's grammar (RFC 9110, section
 * 11; RFC 6750, section 3): each the reference with one defect real services ship, caught by its
 * check and by no other.
 */
import type { CheckName } from '../../fuzz/index.js';
import { nestingExceeds } from '../../src/openapi/index.js';
import type { AppRequest } from '../../src/reference/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import { carefulAuthentication, startBearerStore } from './bearer-stores.js';
import { errorResponse, forward, objectBodyOf, textOf } from './helpers.js';

export interface JsonTextFault {
  readonly name: string;
  readonly defect: string;
  readonly caughtBy: CheckName;
  readonly touches: readonly CheckName[];
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

/** `touches`: the checks its defect breaks besides (a 500 is undeclared; a number where a string belongs is no Plant). */
function fault(name: string, caughtBy: CheckName, defect: string, behaviour: Fault, touches: readonly CheckName[] = []): JsonTextFault {
  return { name, caughtBy, defect, touches, start: () => startFaulty(behaviour) };
}

/** A careful service (bearer-stores.ts) whose 401 carries this WWW-Authenticate field. */
function challenging(name: string, defect: string, field: string): JsonTextFault {
  return { name, caughtBy: 'requires-auth', defect, touches: [], start: () => startBearerStore({ authenticate: carefulAuthentication, challenges: () => field }) };
}

/** The members of a flat JSON object, in order, values as written: how a hand-written reader sees them. */
export function flatMembers(text: string): [string, string][] {
  const member = /"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|[^,}\s]+)/g;
  return [...text.matchAll(member)].map(([, key = '', value = '']) => [key, value]);
}

/**
 * The members of a request's body when it is a flat object with a name twice (which lossless-json,
 * hence objectBodyOf, refuses); undefined for any other body.
 */
export function duplicateMembers(request: AppRequest): [string, string][] | undefined {
  const text = textOf(request).trim();
  if (objectBodyOf(request) !== undefined || !text.startsWith('{') || /[[{]/.test(text.slice(1))) return undefined;
  const members = flatMembers(text);
  return new Set(members.map(([key]) => key)).size < members.length ? members : undefined;
}

/** The object of those members, the first or the last of a name winning. */
export function reading(members: readonly [string, string][], wins: 'first' | 'last'): string {
  const kept = new Map<string, string>();
  for (const [key, value] of members) if (wins === 'last' || !kept.has(key)) kept.set(key, value);
  return `{${[...kept].map(([key, value]) => `"${key}":${value}`).join(',')}}`;
}

export const JSON_TEXT_FAULTS: readonly JsonTextFault[] = [
  fault('refuses-trailing-newline', 'accepts-valid', 'the body must end at its closing brace: a body ending in a newline (as curl -d @plant.json sends) gets 400 (RFC 8259, section 2 allows whitespace after the value)', (request, correct) => {
    // Behind its authentication: what it refuses is a body it would otherwise have stored.
    const answer = correct();
    return answer.status === 200 && /[ \t\r\n]$/.test(textOf(request)) ? errorResponse(400, 'malformed JSON: unexpected characters after the value') : answer;
  }),
  fault('first-validated-last-stored', 'echo', 'duplicate names: the validator reads the first member of a name, the store the last, so {"name":"A","name":5} is stored and answered as {"name":5}', (request, correct, app) => {
    const members = duplicateMembers(request);
    if (members === undefined) return correct();
    const checked = forward(app, { ...request, body: reading(members, 'first') }, {});
    if (checked.status !== 200) return checked;
    const stored = JSON.parse(reading(members, 'last')) as Record<string, unknown>;
    // The id aside (the same in both readings, and beyond a double's precision).
    const rest = Object.fromEntries(Object.entries(stored).filter(([key]) => key !== 'id'));
    return { ...checked, body: JSON.stringify({ ...(JSON.parse(checked.body) as Record<string, unknown>), ...rest }) };
  }, ['response-shape']),
  fault('recursive-parser-depth', 'no-server-error', 'a recursive-descent parser without a depth limit: a body nested deeper than 1000 exhausts its stack, answered 500', (request, correct) =>
    nestingExceeds(textOf(request), 1000) ? errorResponse(500, 'internal: maximum recursion depth exceeded while decoding a JSON array') : correct(),
    ['status-declared'],
  ),
  fault('huge-integer-literal', 'no-server-error', "an integer literal of more than 4300 digits makes the parser's int conversion raise (Python's limit), answered 500", (request, correct) =>
    /\d{4301}/.test(textOf(request)) ? errorResponse(500, 'internal: Exceeds the limit (4300 digits) for integer string conversion') : correct(),
    ['status-declared'],
  ),
  // A bare `Bearer` (no auth-param) is no fault: it is a warning (test/conformance/unusual.ts).
  challenging('unquoted-realm-with-space', 'the realm is written without quotes, Bearer realm=Plant Store: a value with a space must be a quoted-string (RFC 9110, sections 11.2 and 5.6.4)', 'Bearer realm=Plant Store'),
  challenging('repeated-challenge-parameter', 'the challenge names its realm twice, Bearer realm="plants", realm="store": each parameter name occurs once per challenge (RFC 9110, section 11.2), so a client cannot tell which holds', 'Bearer realm="plants", realm="store"'),
  challenging('empty-challenge-element', 'the challenge list has an empty element, Bearer realm="plants",, error="invalid_token": a sender MUST NOT generate one (RFC 9110, section 5.6.1)', 'Bearer realm="plants",, error="invalid_token"'),
  challenging('space-joined-challenge-parameters', 'the auth-params are joined by a space, not a comma, Bearer realm="plants" error="invalid_token": a client reads the rest as garbage (RFC 9110, section 11.2: #auth-param is a comma-separated list)', 'Bearer realm="plants" error="invalid_token"'),
];
