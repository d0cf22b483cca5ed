/**
 * API keys (OpenAPI's `apiKey`): a key in the header, query parameter or cookie the scheme names
 * (`in`, `name`). A key anywhere else is absent. No RFC defines a challenge for one, yet a 401
 * must carry one (RFC 9110, section 11.6.1): the kit's is `ApiKey realm="plant-store", in="<in>",
 * name="<name>"`, saying where the key goes (docs/contracts.md).
 */
import { CREDENTIAL_ACCEPTED, hasControl, quoted, REALM, refused, type CredentialLocation, type SecuritySchemeType } from './scheme.js';

const PLACES: readonly string[] = ['header', 'query', 'cookie'];

/** How a message names where the key goes: `header X-API-Key`, `query parameter key`, `cookie session`. */
function placeOf(location: CredentialLocation | undefined): string {
  if (location === undefined) return 'api key';
  return `${location.in === 'query' ? 'query parameter' : location.in} ${location.name}`;
}

export const apiKey: SecuritySchemeType = {
  name: 'apiKey',
  serves: (scheme) => scheme.type === 'apiKey' && typeof scheme.in === 'string' && PLACES.includes(scheme.in) && typeof scheme.name === 'string' && scheme.name !== '',
  credentialIn: (scheme) => {
    const where = scheme.in as CredentialLocation['in'];
    const name = String(scheme.name);
    return { in: where, name: where === 'header' ? name.toLowerCase() : name };
  },
  write: (key) => key,
  judge: (key, accept, use) => {
    const place = placeOf(use?.credential);
    if (key === undefined) return refused('absent', `${place}: missing api key`);
    if (key === '') return refused('malformed', `${place}: empty api key`);
    return accept(key) ? CREDENTIAL_ACCEPTED : refused('rejected', `${place}: api key not accepted`);
  },
  challenge: (_refusal, use) => (use === undefined ? `ApiKey ${REALM}` : `ApiKey ${REALM}, in=${quoted(use.credential.in)}, name=${quoted(use.credential.name)}`),
  given: (text) => (text === '' ? 'an api key is not empty' : hasControl(text) ? 'an api key holds no control characters' : { credential: text }),
};
