/**
 * `server-assigns-key`: a create that sends a value for the key the server assigns (a property
 * its body marks `readOnly`, or does not declare) gets the server's own key or a 4xx - never the
 * value sent. OpenAPI 3.1, section 4.8.24 (Schema, `readOnly`; JSON Schema Validation, section
 * 9.4): the property is the server's, and a request SHOULD NOT send it; a server that stores what
 * a client sent for it lets a client choose (and collide with) another's key - the mass-assignment
 * weakness (OWASP API Security Top 10, API3:2023). Absent from the answer, it is response-shape's.
 * A value a server could have assigned itself (a small integer of its sequence, a short text) proves
 * nothing when it comes back: only a distinctive one is judged (seven digits or more, eight
 * characters or more), so a correct server whose sequence meets the value drawn is not failed.
 */
import { exchangeCheck } from '../check.js';
import { along, endsSequence, linkJudgement } from '../linked.js';
import { decodeJson, show } from '../json-values.js';
import { isJsonObject } from '../../src/openapi/index.js';
import { isKeyValue } from '../resource-walks.js';
import { parameterText } from '../walks.js';

export const serverAssignsKey = exchangeCheck({
  name: 'server-assigns-key',
  description: 'a create that sends a value for the key the server assigns (readOnly, or undeclared) gets the server\'s own key or a 4xx, never the value sent (OpenAPI 3.1 readOnly; mass assignment)',
  skippedUnder: { mock: 'a mock assigns nothing' },
  applies: (request, outcome) => endsSequence(request, outcome, 'assigned'),
  judge: (request, outcome) => {
    const key = request.link?.key;
    if (outcome.kind !== 'response' || request.link === undefined || key === undefined || key.text === '' || outcome.status < 200 || outcome.status >= 300) return [];
    const parsed = decodeJson(outcome.body);
    const back = 'value' in parsed && isJsonObject(parsed.value) ? parsed.value[key.property] : undefined;
    if (!isKeyValue(back) || parameterText(back) !== key.text || !distinctive(key.text)) return [];
    return [linkJudgement(request.link, `${along(request)}: the create sent ${key.property} ${show(back)} and the answer kept it: the key the server assigns was taken from the request`)];
  },
});

/** Whether a key's text is one no server's own sequence is likely to meet: seven digits or more, or eight characters or more. */
function distinctive(text: string): boolean {
  return /^-?\d+$/.test(text) ? text.replace('-', '').replace(/^0+/, '').length >= 7 : text.length >= 8;
}
