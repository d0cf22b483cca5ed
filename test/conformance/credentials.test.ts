/**
 * Implementations that authenticate correctly in ways a checker must not flag: 400 for malformed
 * credentials (RFC 6750, section 3.1), several challenges in the 401 - on one line, and on two
 * (RFC 9110, section 11.6.1). Each is a small service with authentication of its own in front of
 * the reference (test/faulty/bearer-stores.ts); each keeps the contract without even a warning.
 */
import { carefulAuthentication, malformedGets400, startBearerStore } from '../faulty/bearer-stores.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool();

const seed = SUITE_SEEDS.slice(0, 1);

describeConformance({ name: 'a service answering malformed credentials with 400', start: () => startBearerStore({ authenticate: malformedGets400 }), quiet: true }, seed);
describeConformance({ name: 'a service whose 401 lists two challenges on one line', start: () => startBearerStore({ authenticate: carefulAuthentication, challenges: (bearer) => `Basic realm="plant-store", ${bearer}` }), quiet: true }, seed);
describeConformance({ name: 'a service whose 401 has two WWW-Authenticate lines', start: () => startBearerStore({ authenticate: carefulAuthentication, challenges: (bearer) => ['Basic realm="plant-store"', bearer] }), quiet: true }, seed);
describeConformance({ name: 'a careful service', start: () => startBearerStore({ authenticate: carefulAuthentication }), quiet: true }, seed);
