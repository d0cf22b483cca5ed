/** OAuth 2 (OpenAPI's `oauth2`): the access tokens the user gives, bearer on the wire, with their scopes (access-token.ts). */
import { accessTokenScheme } from './access-token.js';

export const oauth2 = accessTokenScheme('oauth2', 'oauth2');
