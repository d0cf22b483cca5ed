/**
 * A type's fields made assignable: for building a value with optional fields one `if` at a time
 * on the hot path (a conditional spread in the middle of an object literal costs V8 a runtime call
 * and leaves objects of many shapes), then handing it on as the readonly type.
 */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
