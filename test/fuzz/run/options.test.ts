/** Qualified options: every default filled in, every bad value refused with its name before anything is sent. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CAPACITY, DEFAULT_CONCURRENCY, DEFAULT_RUNS } from '../../../fuzz/defaults.js';
import { DEFAULT_CAPACITY_BUDGET_MS } from '../../../fuzz/generation/capacity.js';
import { DEFAULT_CANARY_INTERVAL_MS, DEFAULT_MAX_TIMEOUTS, DEFAULT_SHRINK_TIME_MS, qualify } from '../../../fuzz/run/options.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../../oracle/index.js';
import { DEFAULT_CONFORM_TIMEOUT_MS } from '../../../fuzz/defaults.js';

const baseUrl = 'http://127.0.0.1:1/api';

describe('qualify', () => {
  it('fills in every default', () => {
    const options = qualify({ baseUrl, token: 't', seed: 5 });
    expect(options).toMatchObject({
      profile: 'reference',
      token: 't',
      runs: DEFAULT_RUNS,
      seed: 5,
      timeoutMs: DEFAULT_CONFORM_TIMEOUT_MS,
      concurrency: DEFAULT_CONCURRENCY,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      capacityTarget: DEFAULT_CAPACITY,
      capacityBudgetMs: DEFAULT_CAPACITY_BUDGET_MS,
      canaryIntervalMs: DEFAULT_CANARY_INTERVAL_MS,
      shrinkTimeMs: DEFAULT_SHRINK_TIME_MS,
      maxTimeouts: DEFAULT_MAX_TIMEOUTS,
      phases: ['coverage', 'capacity', 'random', 'overlap'],
    });
    expect(options.base.href).toBe(baseUrl);
  });

  it('needs a token under the reference profile, and makes up a well-formed one under mock', () => {
    expect(() => qualify({ baseUrl })).toThrow(TypeError);
    expect(qualify({ baseUrl, profile: 'mock' }).token).toMatch(/^[A-Za-z0-9._~+/-]+=*$/);
  });

  it('refuses bad numbers by name', () => {
    expect(() => qualify({ baseUrl, token: 't', runs: 0 })).toThrow(/runs must be a positive integer/);
    expect(() => qualify({ baseUrl, token: 't', runs: 1.5 })).toThrow(RangeError);
    for (const name of ['durationMs', 'capacity', 'capacityBudgetMs', 'maxResponseTimeMs', 'canaryIntervalMs'] as const) {
      expect(() => qualify({ baseUrl, token: 't', [name]: -1 })).toThrow(new RegExp(`^${name} must be a number of at least 0`));
      expect(() => qualify({ baseUrl, token: 't', [name]: Number.NaN })).toThrow(RangeError);
    }
  });

  it('refuses a base URL the engine cannot talk to', () => {
    expect(() => qualify({ baseUrl: 'ftp://127.0.0.1', token: 't' })).toThrow(TypeError);
  });

  it('keeps the phases in the run order, without capacity when its target is 0, and at least one worker', () => {
    expect(qualify({ baseUrl, token: 't', phases: ['random', 'coverage'] }).phases).toEqual(['coverage', 'random']);
    expect(qualify({ baseUrl, token: 't', capacity: 0 }).phases).toEqual(['coverage', 'random', 'overlap']);
    expect(qualify({ baseUrl, token: 't', capacity: 2.9 }).capacityTarget).toBe(2);
    expect(qualify({ baseUrl, token: 't', concurrency: 0 }).concurrency).toBe(1);
  });

  it('draws a 32-bit seed when none is given', () => {
    const { seed } = qualify({ baseUrl, token: 't' });
    expect(Number.isSafeInteger(seed) && seed >= 0 && seed < 2 ** 31).toBe(true);
  });
});
