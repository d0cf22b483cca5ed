/** What every run of the battery shares: which cases a way of sending runs, sending one, and the prototype check. */
import type { Agent } from 'node:http';
import { expect } from 'vitest';
import { send, type WireResponse } from '../support/http.js';
import { BATTERY, toWireRequest, type BatteryCase } from './battery.js';

export type Via = 'socket' | 'no-socket';

/** The cases one way of sending runs: all but those that name why they run only the other way. */
export function runnable(cases: readonly BatteryCase[], via: Via): BatteryCase[] {
  return cases.filter((c) => (via === 'socket' ? c.onlyWithoutSocket : c.onlyOverSocket) === undefined);
}

/** The battery's groups as `describe.each` and `it.each` take them: [group, [name, case][]], no group left empty. */
export function batteryTable(via: Via): [group: string, cases: [name: string, c: BatteryCase][]][] {
  return BATTERY.map(([group, cases]): [string, [string, BatteryCase][]] => [group, runnable(cases, via).map((c) => [c.name, c])]).filter(([, cases]) => cases.length > 0);
}

/** One case over a socket, through the tests' node:http client (raw bytes on a socket of their own). */
export function sendCase(baseUrl: string, c: BatteryCase, agent?: Agent): Promise<WireResponse> {
  return send(baseUrl, toWireRequest(c), agent);
}

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

/** A hostile key never reaches a prototype, whatever the answer was (for `afterEach`). */
export function expectPrototypeUnpolluted(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
