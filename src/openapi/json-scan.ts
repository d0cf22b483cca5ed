/**
 * A faster first reading of JSON text, for json.ts's parseJson: the same values lossless-json's
 * `parse` gives (LosslessNumbers holding each number's text, `__proto__` an own property), or
 * undefined wherever it would have to decide something - malformed text, a duplicate key, nesting
 * past the stack - which parseJson then leaves to lossless-json itself, so that every error and
 * every duplicate-key decision stays lossless-json's, word for word.
 *
 * Why: lossless-json builds each string a character at a time. A list answer of a few hundred
 * stored items (about 240 KB) took ~100 ms to read that way, and the conformance engine reads
 * every answer it judges: on a 170-operation contract this was most of a run's time and most of
 * its garbage (bench/README.md). Here a string without escapes is one slice of the text, and an
 * escaped one is built from the runs between its escapes.
 */
import { LosslessNumber } from 'lossless-json';
import type { JsonValue } from './json-value.js';

/** Thrown inside the scan to give the text back to lossless-json; never seen outside this file (made once: no stack is taken per throw). */
const UNDECIDED = new Error('left to lossless-json');

/** RFC 8259, section 7: the one-character escapes, as lossless-json reads them. */
const ESCAPES: Readonly<Record<number, string>> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The value of a JSON text as lossless-json's parse gives it, or undefined where lossless-json must decide. */
export function scanJson(text: string): JsonValue | undefined {
  try {
    return new Scanner(text).document();
  } catch (error) {
    // Undecided, or a stack exhausted by deep nesting: lossless-json decides (and throws as it does).
    if (error === UNDECIDED || error instanceof RangeError) return undefined;
    throw error;
  }
}

class Scanner {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): JsonValue {
    const value = this.#value();
    if (this.#at !== this.#text.length) throw UNDECIDED;
    return value;
  }

  #space(): void {
    const text = this.#text;
    let c = text.charCodeAt(this.#at);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.#at);
  }

  /** A value with the whitespace around it. */
  #value(): JsonValue {
    this.#space();
    const value = this.#bare();
    this.#space();
    return value;
  }

  #bare(): JsonValue {
    const text = this.#text;
    const c = text.charCodeAt(this.#at);
    if (c === 0x22) return this.#string();
    if (c === 0x7b) return this.#object();
    if (c === 0x5b) return this.#array();
    if (c === 0x2d || isDigit(c)) return this.#number();
    for (const [word, value] of KEYWORDS) {
      if (text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return value;
      }
    }
    throw UNDECIDED;
  }

  #string(): string {
    const text = this.#text;
    let at = this.#at + 1;
    let run = at;
    // Undefined until the first escape: a string without one is a slice of the text.
    let result: string | undefined;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x22) break;
      if (c === 0x5c) {
        const [decoded, next] = this.#escape(at);
        result = (result ?? '') + text.slice(run, at) + decoded;
        at = run = next;
        continue;
      }
      // NaN past the end of the text, or a control character (RFC 8259, section 7).
      if (!(c >= 0x20)) throw UNDECIDED;
      at++;
    }
    this.#at = at + 1;
    const tail = text.slice(run, at);
    return result === undefined ? tail : result + tail;
  }

  /** The escape at `at` (a backslash) decoded, and the index after it. */
  #escape(at: number): [string, number] {
    const text = this.#text;
    const next = text.charCodeAt(at + 1);
    const simple = ESCAPES[next];
    if (simple !== undefined) return [simple, at + 2];
    if (next === 0x75 /* u */ && isHex(text.charCodeAt(at + 2)) && isHex(text.charCodeAt(at + 3)) && isHex(text.charCodeAt(at + 4)) && isHex(text.charCodeAt(at + 5))) {
      return [String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16)), at + 6];
    }
    throw UNDECIDED;
  }

  /** RFC 8259, section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, kept as its text. */
  #number(): LosslessNumber {
    const text = this.#text;
    const start = this.#at;
    let at = start;
    if (text.charCodeAt(at) === 0x2d) at++;
    const first = text.charCodeAt(at);
    if (first === 0x30) at++;
    else if (isDigit(first)) while (isDigit(text.charCodeAt(at))) at++;
    else throw UNDECIDED;
    if (text.charCodeAt(at) === 0x2e) {
      at++;
      if (!isDigit(text.charCodeAt(at))) throw UNDECIDED;
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === 0x2b || sign === 0x2d) at++;
      if (!isDigit(text.charCodeAt(at))) throw UNDECIDED;
      while (isDigit(text.charCodeAt(at))) at++;
    }
    this.#at = at;
    return new LosslessNumber(text.slice(start, at));
  }

  #object(): JsonValue {
    const text = this.#text;
    this.#at++;
    this.#space();
    const object: Record<string, JsonValue> = {};
    if (text.charCodeAt(this.#at) === 0x7d) {
      this.#at++;
      return object;
    }
    for (;;) {
      if (text.charCodeAt(this.#at) !== 0x22) throw UNDECIDED;
      const key = this.#string();
      this.#space();
      if (text.charCodeAt(this.#at) !== 0x3a) throw UNDECIDED;
      this.#at++;
      const value = this.#value();
      // A repeated key: lossless-json keeps an equal value and refuses another one, in its own words.
      if (Object.hasOwn(object, key)) throw UNDECIDED;
      if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      else object[key] = value;
      const c = text.charCodeAt(this.#at);
      this.#at++;
      if (c === 0x7d) return object;
      if (c !== 0x2c) throw UNDECIDED;
      this.#space();
    }
  }

  #array(): JsonValue {
    const text = this.#text;
    this.#at++;
    this.#space();
    const array: JsonValue[] = [];
    if (text.charCodeAt(this.#at) === 0x5d) {
      this.#at++;
      return array;
    }
    for (;;) {
      array.push(this.#value());
      const c = text.charCodeAt(this.#at);
      this.#at++;
      if (c === 0x5d) return array;
      if (c !== 0x2c) throw UNDECIDED;
    }
  }
}

const KEYWORDS: readonly (readonly [string, JsonValue])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
