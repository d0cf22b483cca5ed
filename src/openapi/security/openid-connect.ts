/** OpenID Connect (OpenAPI's `openIdConnect`): the access tokens the user gives, bearer on the wire, with their scopes (access-token.ts). Nothing is discovered. */
import { accessTokenScheme } from './access-token.js';

export const openIdConnect = accessTokenScheme('openIdConnect', 'openIdConnect');
