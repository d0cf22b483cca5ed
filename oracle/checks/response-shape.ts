/** `response-shape`: the body and media type are the ones the contract declares for the status; declared required headers are there. */
import { formatIssues, mediaTypeEssence } from '../../src/openapi/index.js';
import { exchangeCheck, failure, type Judgement } from '../check.js';
import { bodyUnreadable } from '../answer-facts.js';
import { messageLevel, refusedTarget } from '../leniencies.js';
import { operationOf, schemaName } from '../declared.js';
import { decodeJson } from '../json-values.js';
import { excerpt } from '../messages.js';
import { readVariantBody } from '../media-values.js';

export const responseShape = exchangeCheck({
  name: 'response-shape',
  description: 'the body and media type are what the contract declares for the status (in the bundled openapi.yaml: a Plant for 200, an Error otherwise, application/json with any parameters); declared required headers are present',
  // A body in a coding the client cannot undo is content-coding's finding, not a broken body.
  // The 400 to a request without Host comes from the HTTP layer before any operation is found
  // (node:http writes it bare): its status is judged (RFC 9112, section 3.2), not its body. So is
  // the 4xx to a request whose message bends or breaks RFC 9112's grammar (RequestFraming.spelling),
  // and a 4xx to a target a server may not recognise as the operation's (an invalid or an
  // equivalent spelling): the router's or the HTTP layer's answer, not the operation's.
  applies: (request, outcome, { contract }) =>
    outcome.kind === 'response' &&
    !bodyUnreadable(outcome) &&
    request.framing?.noHost !== true &&
    !(messageLevel(request) && outcome.status >= 400 && outcome.status < 500) &&
    !refusedTarget(request, outcome.status) &&
    operationOf(contract, request)?.response(outcome.status) !== undefined,
  judge: (request, outcome, { contract }) => {
    if (outcome.kind !== 'response') return [];
    const declared = operationOf(contract, request)?.response(outcome.status);
    if (!declared) return [];
    const judgements: Judgement[] = [];
    const fail = (message: string): void => {
      judgements.push(failure(`status ${outcome.status}: ${message}`));
    };
    for (const [name, header] of declared.headers) {
      if (header.required && outcome.headers[name] === undefined) fail(`the ${name} header the contract declares as required is missing`);
    }
    if (declared.mediaTypes.length === 0) return judgements;
    const type = outcome.headers['content-type'];
    if (!declared.mediaTypes.some((t) => t.toLowerCase() === mediaTypeEssence(type))) {
      fail(`Content-Type is ${type === undefined ? 'missing' : `"${type}"`}; the contract declares ${declared.mediaTypes.join(' or ')}`);
    }
    const variant = declared.variants.find((v) => v.essence === mediaTypeEssence(type));
    if (variant !== undefined && variant.codec.name !== 'json') {
      // A form, multipart or text answer is read by its codec and held to its schema; a type no codec validates is named not checked in the report (reported.ts), not passed here.
      const reading = variant.validate === undefined ? undefined : readVariantBody(variant, type, outcome.body);
      if (reading !== undefined && 'error' in reading) fail(`the body is not ${variant.mediaType} (${reading.error}): ${excerpt(outcome.body)}`);
      else if (reading !== undefined && 'value' in reading && variant.validate !== undefined) {
        const validation = variant.validate(reading.value);
        if (!validation.valid) fail(`the body is not ${schemaName(variant.schema)} (${formatIssues(validation.issues)}): ${excerpt(outcome.body)}`);
      }
    } else if (declared.validateBody) {
      const parsed = decodeJson(outcome.body);
      if ('error' in parsed) {
        fail(`the body is ${parsed.error}, not ${schemaName(declared.schema)}: ${excerpt(outcome.body)}`);
      } else {
        const validation = declared.validateBody(parsed.value);
        if (!validation.valid) fail(`the body is not ${schemaName(declared.schema)} (${formatIssues(validation.issues)}): ${excerpt(outcome.body)}`);
      }
    }
    return judgements;
  },
});
