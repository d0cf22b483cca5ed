/**
 * Bodies in every declared media type (issue 29): default runs against a contract with a
 * form-encoded create and a multipart upload (test/fixtures/contracts/seed-forms.yaml). The kit's
 * own reference keeps it; a form whose field bounds are ignored is caught by rejects-invalid, an
 * upload that drops a part by echo (test/faulty/media.ts).
 */
import { MEDIA_CONTRACT_FILE, MEDIA_FAULTS, MEDIA_REFERENCE } from '../faulty/media.js';
import { describeConformance, SUITE_SEEDS, useEnginePool } from './common.js';

useEnginePool();

const first = SUITE_SEEDS.slice(0, 1);

/** What the reference of this open contract is not held to: it has no credentials, no delete and no replace. */
const SKIPS = {
  'requires-auth': 'the contract is open (security: [])',
  'credentials-first': 'the contract is open (security: [])',
  'deleted-stays-deleted': 'the contract declares no delete',
  'replacement-visible': 'the contract declares no replace',
  degradation: 'a short run measures no trend',
  'resource-available': 'a random write may land on the edge id a sequence created',
} as const;

describeConformance({ name: MEDIA_REFERENCE.name, contract: MEDIA_CONTRACT_FILE, start: MEDIA_REFERENCE.start, timeout: 'default', skips: SKIPS }, first);
for (const implementation of MEDIA_FAULTS) {
  describeConformance({ name: `${implementation.name}: ${implementation.defect ?? ''}`, contract: MEDIA_CONTRACT_FILE, start: implementation.start, caughtBy: implementation.caughtBy, timeout: 'default' }, first);
}
