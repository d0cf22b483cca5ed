/**
 * The builder of the map's rows: a row file writes what is each row's own, and the builder the
 * rest. The RFC and section are read from the id (`<rfc number>-<section>-<name>`), a row is a
 * failure unless it gives the reason it only warns, and what a file's rows share (their check,
 * their requests) is a constant or a builder of that file.
 */
import type { CheckName } from '../registry.js';
import { RFCS, type Provocation, type Rfc, type TestedRequirement, type UntestableRequirement } from './requirement.js';

/** How a row's answer is judged (Judging): a failure, or with `warning` (its why) a warning. */
export interface JudgeRow {
  readonly check: CheckName;
  readonly how: string;
  readonly warning?: string;
}

interface RowBase {
  /** `<rfc number>-<section>-<name>`, e.g. `9112-5.1-no-space-before-colon`: the RFC and section the row stands under. */
  readonly id: string;
  readonly says: string;
}

export interface TestedRow extends RowBase {
  readonly provoke: Provocation;
  readonly judge: JudgeRow;
  readonly faults: readonly string[];
}

export interface UntestableRow extends RowBase {
  readonly untestable: string;
}

const ID = /^(\d+)-(\d+(?:\.\d+)*)-[a-z0-9-]+$/;

/** The RFC and section an id names; an id of another form is a mistake in the rows, refused where it is written. */
function placeOf(id: string): { readonly rfc: Rfc; readonly section: string } {
  const [, number, section] = ID.exec(id) ?? [];
  const rfc = RFCS.find((known) => known === `RFC ${number ?? ''}`);
  if (rfc === undefined || section === undefined) throw new Error(`map row ${id}: an id is <rfc number>-<section>-<name>, of one of ${RFCS.join(', ')}`);
  return { rfc, section };
}

export function tested(row: TestedRow): TestedRequirement {
  const { check, how, warning } = row.judge;
  const judge = warning === undefined ? { check, how, severity: 'failure' as const } : { check, how, severity: 'warning' as const, why: warning };
  return { id: row.id, ...placeOf(row.id), says: row.says, provoke: { how: row.provoke.how, tags: row.provoke.tags }, judge, faults: row.faults };
}

export function untestable(row: UntestableRow): UntestableRequirement {
  return { id: row.id, ...placeOf(row.id), says: row.says, untestable: row.untestable };
}
