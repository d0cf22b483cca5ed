/** How often a finding's request showed it again when replayed alone, in words every report uses. */
import type { ReportedFinding } from '../run/record.js';

/**
 * `reproduced 3 of 3`; `seen once` (in the run, and in no replay); `seen 18 times in the run,
 * reproduced 0 of 3 alone` (it needs what the run had around it: other requests in flight, a
 * load). Undefined for a finding about the run as a whole, which has no request to replay.
 */
export function replayLabel(finding: Pick<ReportedFinding, 'replays' | 'occurrences'>): string | undefined {
  const replays = finding.replays;
  if (replays === undefined) return undefined;
  if (replays.reproduced > 0) return `reproduced ${replays.reproduced} of ${replays.of}`;
  if (finding.occurrences <= 1) return `seen once (reproduced 0 of ${replays.of} replays)`;
  return `seen ${finding.occurrences} times in the run, reproduced 0 of ${replays.of} alone`;
}
