/**
 * `bad-auth-no-body`: bad-auth's credentials (every `refuse` row of the credential table) on the
 * operations without a request body, with valid parameters. An operation the contract opens
 * (`security: []`) gets none: it has no credentials to refuse.
 */
import fc from 'fast-check';
import { badCredentials, coveredCredentials, schemeCredentials } from './bad-auth.js';
import { operationKind } from './kind.js';

export const badAuthNoBody = operationKind({
  name: 'bad-auth-no-body',
  description: "bad-auth's credentials on every secured operation without a body (none on an operation the contract opens with security: [])",
  weight: 6,
  random: (context) => {
    const { scheme, operation } = context;
    const spellings = scheme === undefined ? schemeCredentials(context) : badCredentials(scheme, context.token, context.profile);
    if (spellings.length === 0 || operation.requestBody !== undefined) return undefined;
    return fc
      .record({ values: context.parameters, auth: fc.constantFrom(...spellings) })
      .map(({ values, auth }) => context.make({ kind: 'bad-auth-no-body', variant: auth.shown, content: 'valid', auth, values, tags: [`credentials:${auth.credentials}`] }));
  },
  coverage: (context) => {
    const { scheme, operation } = context;
    if (operation.requestBody !== undefined) return [];
    const spellings = scheme === undefined ? schemeCredentials(context) : badCredentials(scheme, context.token, context.profile);
    return coveredCredentials(context, spellings).map(({ auth, n }) => context.make({ kind: 'bad-auth-no-body', variant: auth.shown, content: 'valid', auth, values: context.plainParameters(n), tags: [`credentials:${auth.credentials}`] }));
  },
});
