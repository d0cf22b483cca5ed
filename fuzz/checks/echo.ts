/**
 * `echo`: the success body carries what was sent - every property the response schema declares
 * (name, tag) exactly, and every other property of the request schema (id) exactly where present.
 * Not under the `mock` profile: a mock does not store what it was sent.
 */
import { isJsonObject, type JsonValue } from '../../src/openapi/index.js';
import { exchangeCheck, failure, warning, type Verdict } from './check.js';
import { decodeJson, describeRequest, firstDifference, operationOf, sameJson, show } from './support.js';

export const echo = exchangeCheck({
  name: 'echo',
  description: 'the 200 Plant carries the name and tag that were sent, exactly, and the id where present, as the same integer (1e2 is 100; the string of its digits is accepted, a rounded number is not)',
  skippedUnder: { mock: 'a mock stores nothing, so it cannot answer with what was sent' },
  applies: (request, outcome, { profile }) => profile !== 'mock' && request.content === 'valid' && request.credentials === 'valid' && outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300,
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const operation = operationOf(contract, request);
    const requestShape = operation?.requestBody?.shape;
    const responseSchema = operation?.response(outcome.status)?.schema;
    if (!requestShape || !responseSchema) return [];
    const sent = decodeJson(request.body);
    const got = decodeJson(outcome.body);
    if (!('value' in sent) || !('value' in got) || !isJsonObject(sent.value) || !isJsonObject(got.value)) return [];
    const sentObject = sent.value;
    const gotObject = got.value;
    const echoed = contract.shapeOf(responseSchema).properties;
    const verdicts: Verdict[] = [];
    for (const key of requestShape.properties.keys()) {
      if (!Object.hasOwn(sentObject, key)) continue;
      const value = sentObject[key] as JsonValue;
      const present = Object.hasOwn(gotObject, key);
      if (!present && !echoed.has(key)) continue;
      const back = present ? gotObject[key] : undefined;
      if (sameJson(value, back)) continue;
      const detail = typeof value === 'string' && typeof back === 'string' ? firstDifference(value, back) : '';
      const message = `${key} was sent as ${show(value)} but came back as ${show(back)}${detail}; ${describeRequest(request)}`;
      verdicts.push(request.lenient === undefined ? failure(message) : warning(`${message} (allowed: ${request.lenient})`));
    }
    return verdicts;
  },
});
