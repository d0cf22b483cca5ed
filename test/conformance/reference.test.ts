/** The reference implementation keeps the contract under every seed of the suite. */
import { startReference } from '../support/servers.js';
import { describeConformance, useEnginePool } from './common.js';

useEnginePool();

describeConformance({ name: 'the reference implementation', start: startReference });
