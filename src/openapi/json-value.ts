/** A parsed JSON value (json.ts, json-scan.ts): numbers are LosslessNumbers, kept as their text. */
import type { LosslessNumber } from 'lossless-json';

export type JsonValue = null | boolean | string | LosslessNumber | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
