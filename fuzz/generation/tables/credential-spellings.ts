/**
 * The credential table's rows as the request kinds send them: an `AuthSpelling` a row makes for the
 * scheme word and the user's token, with what its credentials are by the grammar. The table itself
 * (the rows, the grammar, the RFC sections) is the oracle's (oracle/credential-table.ts): the proxy's
 * classification reads it too.
 */
import { carriesWellFormedToken, CREDENTIAL_VARIANTS, credentialsByGrammar, queryEncoded, type Credentials, type CredentialVariant, type DerivedSecret, type Profile } from '../../../oracle/index.js';

/** Credentials as a request carries them. */
export interface AuthSpelling {
  /** The Authorization header's value; undefined for none. */
  readonly header: string | undefined;
  readonly credentials: Credentials;
  /** The header as a person may read it, without the token: `Authorization: bearer <token>`. */
  readonly shown: string;
  /** A query string to add (RFC 6750, section 2.3's access_token), without `?`. */
  readonly query?: string;
  /** The row of the credential table (oracle/credential-table.ts) it comes from, if any. */
  readonly name?: string;
  /** Further Authorization field lines after `header` (two fields, RFC 9110, section 5.3). */
  readonly moreHeaders?: readonly string[];
  /** Text made from the token, for reports to hide (see RequestCase.derived). */
  readonly derived?: DerivedSecret;
  /**
   * Set where the RFCs leave the answer to these credentials open: the request's `lenient`. Only
   * on spellings sent with a valid body (the valid and bad-auth kinds), never in `goodAuth`.
   */
  readonly lenient?: string;
  /** Further header fields the credentials go in (an API key's header, `cookie`), lower-case names (scheme-credentials.ts). */
  readonly fields?: Readonly<Record<string, string>>;
  /** The type of the scheme these credentials attack (`apiKey`, `http basic`), where one is (see RequestCase.attacked). */
  readonly attacked?: string;
}

/** A row as the request kinds take it, for a scheme word and token; undefined where the row does not apply. */
export function spellingOf(variant: CredentialVariant, scheme: string, token: string): AuthSpelling | undefined {
  const presented = variant.build(scheme, token);
  if (presented === undefined) return undefined;
  const [header, ...more] = presented.lines;
  return {
    header,
    credentials: credentialsByGrammar(presented, scheme, token),
    shown: variant.prose ? variant.shown.replace(/`/g, '') : `Authorization: ${variant.shown}`,
    name: variant.name,
    ...(more.length === 0 ? {} : { moreHeaders: more }),
    ...(presented.accessToken === undefined ? {} : { query: `access_token=${queryEncoded(presented.accessToken)}` }),
    ...(presented.derived === undefined ? {} : { derived: presented.derived }),
    ...(variant.lenient === undefined ? {} : { lenient: variant.lenient }),
  };
}

/** The same credentials sent the same way. */
const sameAuth = (a: AuthSpelling, b: AuthSpelling): boolean => a.header === b.header && a.query === b.query && (a.moreHeaders ?? []).join('\n') === (b.moreHeaders ?? []).join('\n');

/**
 * The rows of one side that apply to the token, as spellings, in table order: without a row that
 * sends what an earlier one sends (the token in upper case when it has no lower-case letter) or
 * what the plain `Bearer <token>` sends, and under the mock profile without a refusal a mock may
 * not give (any well-formed token is accepted there).
 */
export function credentialSpellings(side: CredentialVariant['side'], scheme: string, token: string, profile: Profile = 'reference'): AuthSpelling[] {
  const plain: AuthSpelling = { header: `${scheme} ${token}`, credentials: 'valid', shown: '' };
  const spellings: AuthSpelling[] = [];
  for (const variant of CREDENTIAL_VARIANTS) {
    if (variant.side !== side) continue;
    const presented = variant.build(scheme, token);
    if (presented === undefined || (side === 'refuse' && profile === 'mock' && carriesWellFormedToken(presented, scheme))) continue;
    const spelling = spellingOf(variant, scheme, token);
    if (spelling !== undefined && !sameAuth(spelling, plain) && !spellings.some((s) => sameAuth(s, spelling))) spellings.push(spelling);
  }
  return spellings;
}
