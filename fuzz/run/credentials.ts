/**
 * A run's credentials per security scheme (`--auth <scheme>=<value>`, the API's `credentials`),
 * read as the servers read them (src/http/credentials.ts: one reading of `--auth` for the kit), and
 * what the report says of them: the schemes the run exercised, the operations it could not reach.
 */
import { authVariable, readCredentials, servedSchemes } from '../../src/http/index.js';
import type { Contract, OperationContract } from '../../src/openapi/index.js';
import type { Profile } from '../../oracle/index.js';
import { credentialPlan, schemesOf, type EngineCredentials } from '../generation/tables/scheme-credentials.js';

/** The run's credentials, checked: the credential of each scheme as it is sent (scopes taken off), the header fields, a bearer token if one was given. */
export interface RunCredentials extends EngineCredentials {
  /** The credential given for the contract's first HTTP bearer scheme: the run's token where `--token` is not given. */
  readonly bearer: string | undefined;
}

/** RFC 9110, section 5.1: a field name is a token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Checks the credentials against the contract's schemes (TypeError naming the scheme) and the header fields' names. */
export function runCredentials(contract: Contract, given: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>>): RunCredentials {
  const served = servedSchemes(contract);
  let schemes: Record<string, string>;
  try {
    schemes = readCredentials(contract, given);
  } catch (error) {
    throw new TypeError(error instanceof Error ? error.message : String(error));
  }
  const bearer = Object.entries(schemes).find(([name]) => served.get(name)?.name === 'http bearer')?.[1];
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!FIELD_NAME.test(name)) throw new TypeError(`header ${JSON.stringify(name)}: a field name is a token (RFC 9110, section 5.1)`);
    fields[name.toLowerCase()] = value;
  }
  return { schemes, headers: fields, bearer };
}

/** `Name: value` (the command line's --header): the field's name and value, or undefined where it is not one. */
export function splitHeader(text: string): { name: string; value: string } | undefined {
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
}

/** What a run says of its credentials: the schemes it sent credentials of, and each operation it could not reach, with why. */
export interface SecuritySummary {
  readonly exercised: readonly string[];
  /** Whether the run had a bearer token (`--token`): its replay command reads `$TOKEN` only then, the others `PLANT_STORE_AUTH_<SCHEME>`. */
  readonly token: boolean;
  readonly notTested: readonly { readonly operation: string; readonly reason: string }[];
}

/** An operation as reports name it: `listSeeds (GET /seeds)`; `GET /seeds` where the contract gives no operationId (the kit's stands in for it). */
export function operationLabel(operation: OperationContract): string {
  const route = `${operation.method} ${operation.path}`;
  return operation.operationId === route ? route : `${operation.operationId} (${route})`;
}

export function securitySummary(contract: Contract, options: { token: string; profile: Profile; credentials: EngineCredentials }): SecuritySummary {
  const exercised = new Set<string>();
  const notTested: { operation: string; reason: string }[] = [];
  for (const operation of contract.operations) {
    const plan = credentialPlan(operation, options.token, options.credentials, options.profile);
    if (plan.kind === 'unreachable') notTested.push({ operation: operationLabel(operation), reason: plan.reason });
    else if (plan.kind === 'bearer') exercised.add(operation.securedBy[0]?.[0]?.name ?? 'bearer');
    else for (const name of schemesOf(plan)) exercised.add(name);
  }
  return { exercised: [...exercised], token: options.token !== '', notTested };
}

/** A secret a report hides, with the placeholder it shows and the shell expression its curl commands use. */
export interface CredentialSecret {
  readonly text: string;
  readonly placeholder: string;
  readonly shell: string;
}

/** Every credential of the run as a request may carry it (as given, base64 for basic, query-encoded), for reports to hide: `<auth:name>`, `$PLANT_STORE_AUTH_NAME`. */
export function credentialSecrets(contract: Contract, credentials: EngineCredentials): CredentialSecret[] {
  const served = servedSchemes(contract);
  return Object.entries(credentials.schemes).flatMap(([name, text]) => {
    const written = served.get(name)?.write(text) ?? text;
    const variable = `\${${authVariable(name)}}`;
    const forms = [
      { text, shell: variable },
      { text: written.replace(/^\S+ /, ''), shell: `$(printf %s "${variable}" | base64 | tr -d '\\n')` },
      { text: encodeURIComponent(text), shell: variable },
    ];
    const seen = new Set<string>();
    return forms.filter((form) => form.text !== '' && !seen.has(form.text) && seen.add(form.text)).map((form) => ({ ...form, placeholder: `<auth:${name}>` }));
  });
}
