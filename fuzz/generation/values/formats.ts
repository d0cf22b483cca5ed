/**
 * Strings valid for their `format` (JSON Schema 2020-12, section 7.3; OpenAPI 3.1, section 4.4),
 * as the contract's validator reads them (ajv-formats, full mode): a `format: uuid` parameter or
 * property gets a uuid, never `plant 3`, so that a "valid" request is valid and the engine does not
 * spin filtering random text for the rare one that passes. Each format has a random arbitrary and
 * a plain value, the same for the same `n` and different for different ones. Formats without a
 * constraint (password, binary) and unknown ones are none of this module's: any string will do.
 */
import fc from 'fast-check';

const pad = (value: number, width: number): string => String(value).padStart(width, '0');
const DAY_MS = 86_400_000;
/** 2024-01-01T00:00:00Z: plain dates count from here. */
const PLAIN_EPOCH = Date.UTC(2024, 0, 1);

const dateOf = fc.integer({ min: Date.UTC(1000, 0, 1) / DAY_MS, max: Date.UTC(9999, 11, 31) / DAY_MS }).map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));
const fraction = fc.option(fc.integer({ min: 0, max: 999_999 }).map((n) => `.${pad(n, 6).replace(/(\d)0+$/, '$1')}`), { nil: '' });
const offset = fc.oneof(fc.constantFrom('Z', 'z'), fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`));
const clock = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fraction).map(([h, m, s, f]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${f}`);
const time = fc.tuple(clock, offset).map(([c, o]) => `${c}${o}`);
const dateTime = fc.tuple(dateOf, time).map(([d, t]) => `${d}T${t}`);
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
const hostname = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/)).map(([labels, tld]) => [...labels, tld].join('.'));
const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
const path = fc.array(segment, { maxLength: 4 }).map((segments) => segments.map((s) => `/${s}`).join(''));
// ajv-formats' url is stricter about a host's labels than hostname is (no hyphen runs): letters and digits.
const urlHost = fc.tuple(fc.array(fc.stringMatching(/^[a-z0-9]{1,12}$/), { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/)).map(([labels, tld]) => [...labels, tld].join('.'));
const url = fc.tuple(fc.constantFrom('http', 'https'), urlHost, path).map(([scheme, host, p]) => `${scheme}://${host}${p}`);
const pointer = fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }).map((segments) => segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));
const hex = (min: number, max: number): fc.Arbitrary<string> => fc.integer({ min, max }).map((n) => n.toString(16));

/** Random valid strings, by format name (ajv-formats' full formats that constrain a string). */
export const FORMAT_ARBITRARIES: Readonly<Record<string, fc.Arbitrary<string>>> = {
  uuid: fc.uuid(),
  date: dateOf,
  time,
  'date-time': dateTime,
  'iso-time': fc.oneof(time, clock),
  'iso-date-time': fc.oneof(dateTime, fc.tuple(dateOf, clock).map(([d, c]) => `${d}T${c}`)),
  duration: fc.oneof(
    fc.tuple(fc.nat(99), fc.nat(11), fc.nat(30)).map(([y, m, d]) => `P${y}Y${m}M${d}D`),
    fc.tuple(fc.nat(23), fc.nat(59), fc.nat(59)).map(([h, m, s]) => `PT${h}H${m}M${s}S`),
    fc.nat(52).map((w) => `P${w}W`),
  ),
  uri: url,
  url,
  'uri-reference': fc.oneof(url, path.map((p) => p || '/')),
  'uri-template': fc.tuple(url, fc.stringMatching(/^[a-z]{1,8}$/)).map(([u, name]) => `${u}/{${name}}`),
  email: fc.tuple(fc.stringMatching(/^[a-z0-9](?:[a-z0-9._+-]{0,14}[a-z0-9])?$/).filter((s) => !s.includes('..')), hostname).map(([local, host]) => `${local}@${host}`),
  hostname,
  ipv4: fc.ipV4(),
  ipv6: fc.tuple(fc.array(hex(0, 0xffff), { minLength: 8, maxLength: 8 }), fc.boolean()).map(([groups, short]) => (short ? `${groups.slice(0, 3).join(':')}::${groups.slice(6).join(':')}` : groups.join(':'))),
  regex: fc.constantFrom('^[a-z]+$', '\\d{3}-\\d{4}', '(ab|cd)*', '.*'),
  'json-pointer': pointer,
  'json-pointer-uri-fragment': fc.array(segment, { maxLength: 4 }).map((segments) => `#${segments.map((s) => `/${s.replace(/~/g, '~0')}`).join('')}`),
  'relative-json-pointer': fc.tuple(fc.nat(9), fc.oneof(fc.constant('#'), pointer)).map(([up, rest]) => `${up}${rest}`),
  byte: fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('base64')),
};

/** A plain valid string of the format, the same for the same `n`; undefined for a format not listed above. */
export function plainOfFormat(format: string, n: number): string | undefined {
  const at = new Date(PLAIN_EPOCH + n * 1000).toISOString();
  const plain: Record<string, () => string> = {
    uuid: () => `00000000-0000-4000-8000-${(n >>> 0).toString(16).padStart(12, '0').slice(-12)}`,
    date: () => new Date(PLAIN_EPOCH + n * DAY_MS).toISOString().slice(0, 10),
    time: () => `${at.slice(11, 19)}Z`,
    'date-time': () => `${at.slice(0, 19)}Z`,
    'iso-time': () => `${at.slice(11, 19)}Z`,
    'iso-date-time': () => `${at.slice(0, 19)}Z`,
    duration: () => `P${n}D`,
    uri: () => `https://example.com/plants/${n}`,
    url: () => `https://example.com/plants/${n}`,
    'uri-reference': () => `/plants/${n}`,
    'uri-template': () => `https://example.com/plants/{id${n}}`,
    email: () => `plant${n}@example.com`,
    hostname: () => `plant${n}.example.com`,
    ipv4: () => `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`,
    ipv6: () => `2001:db8::${(n & 0xffff).toString(16)}`,
    regex: () => `^plant${n}$`,
    'json-pointer': () => `/plants/${n}`,
    'json-pointer-uri-fragment': () => `#/plants/${n}`,
    'relative-json-pointer': () => `0/plants/${n}`,
    byte: () => Buffer.from(`plant ${n}`).toString('base64'),
  };
  return plain[format]?.();
}
