/**
 * Faulty Plant Stores about JSON texts (RFC 8259) and the challenge's grammar (RFC 9110, section
 * 11; RFC 6750, section 3): each the reference with one defect real services ship, caught by its
 * check and by no other.
 */
import type { CheckName } from '../../fuzz/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import { carefulAuthentication, startBearerStore } from './bearer-stores.js';
import { errorResponse } from './helpers.js';

export interface JsonTextFault {
  readonly name: string;
  readonly defect: string;
  readonly caughtBy: CheckName;
  readonly touches: readonly CheckName[];
  start(): Promise<{ readonly url: string; close(): Promise<void> }>;
}

function fault(name: string, caughtBy: CheckName, defect: string, behaviour: Fault): JsonTextFault {
  return { name, caughtBy, defect, touches: [], start: () => startFaulty(behaviour) };
}

/** A careful service (bearer-stores.ts) whose 401 carries this WWW-Authenticate field. */
function challenging(name: string, defect: string, field: string): JsonTextFault {
  return { name, caughtBy: 'requires-auth', defect, touches: [], start: () => startBearerStore({ authenticate: carefulAuthentication, challenges: () => field }) };
}

function textOf(body: string | Uint8Array | undefined): string {
  return typeof body === 'string' ? body : Buffer.from(body ?? []).toString('utf8');
}

export const JSON_TEXT_FAULTS: readonly JsonTextFault[] = [
  fault('refuses-trailing-newline', 'accepts-valid', 'the body must end at its closing brace: a body ending in a newline (as curl -d @plant.json sends) gets 400 (RFC 8259, section 2 allows whitespace after the value)', (request, correct) => {
    // Behind its authentication: what it refuses is a body it would otherwise have stored.
    const answer = correct();
    return answer.status === 200 && /[ \t\r\n]$/.test(textOf(request.body)) ? errorResponse(400, 'malformed JSON: unexpected characters after the value') : answer;
  }),
  challenging('bare-bearer-challenge', 'the 401 says WWW-Authenticate: Bearer with nothing after it; RFC 6750, section 3 demands one or more auth-params (realm, error)', 'Bearer'),
  challenging('unquoted-realm-with-space', 'the realm is written without quotes, Bearer realm=Plant Store: a value with a space must be a quoted-string (RFC 9110, sections 11.2 and 5.6.4)', 'Bearer realm=Plant Store'),
];
