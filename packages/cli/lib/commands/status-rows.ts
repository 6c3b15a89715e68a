import {readSliceState} from '@verification-tiers/runtime'
import type {SliceState, SliceStatus} from '@verification-tiers/runtime'
import type {StatusNote, StatusRow} from '../status-table.js'

/** What `tiers status` knows of a slice beyond its `SliceStatus`, as notes under the table. */
export interface StatusExtras {
  nothingToCheck: string[]
  contracts: number
  openTasks: number
  /** Open optional tasks that do not hold the slice (Kiro's `- [ ]*`). */
  optionalTasks: number
  retired: string | null
  /** What lowered the bar since a person approved the slice, one line each (old → new, and where). */
  weakenings: ReadonlyArray<{line: string}>
}

/**
 * The rows of the terminal table: each slice's state and the time of the
 * latest thing recorded for it (its latest verification run, a reply, a
 * route, an escalation, a decision).
 */
export async function statusRows(dir: string, statuses: ReadonlyArray<SliceStatus & StatusExtras>): Promise<StatusRow[]> {
  // The runs are read for the table alone: piped, `tiers status` loads none of the evidence.
  const {readVerificationStatus} = await import('@verification-tiers/evidence/gate')
  const runs = (await readVerificationStatus(dir))?.slices ?? {}
  const rows: StatusRow[] = []
  for (const status of statuses) {
    const state = await readSliceState(dir, status.slice)
    const run = Object.hasOwn(runs, status.slice) ? runs[status.slice]?.verification_run.timestamp : undefined
    rows.push({
      slice: status.slice,
      name: status.name,
      tier: status.tier,
      state: status.decision === null ? 'undecided' : `${status.decision.status}${status.stale ? ' (stale)' : ''}`,
      rejections: `${status.rejectionCount}/${status.threshold}`,
      lastActivity: latest([...(run === undefined ? [] : [run]), ...recordedTimes(state)]),
      next: status.next,
      notes: tableNotes(status)
    })
  }
  return rows
}

/** What a slice's line says besides its state: open tasks, no contracts, nothing to check, a retired check. */
export function statusNotes(status: StatusExtras): string[] {
  return [
    ...(status.openTasks > 0 ? [`${status.openTasks} open task${status.openTasks === 1 ? '' : 's'}`] : []),
    ...(status.optionalTasks > 0 ? [`${status.optionalTasks} optional task${status.optionalTasks === 1 ? '' : 's'} open`] : []),
    ...(status.contracts === 0 ? ['no contracts'] : []),
    ...(status.nothingToCheck.length > 0 ? [`nothing to check in ${status.nothingToCheck.join(', ')} (verify, no acceptance criteria or steps)`] : []),
    ...(status.retired === null ? [] : [`human check retired: ${status.retired}`]),
    ...(status.weakenings.length > 0 ? [`changed since approved (verify until a person approves it as it is): ${changedLines(status)}`] : [])
  ]
}

/** The same, as the table groups them under a title. */
function tableNotes(status: StatusExtras): StatusNote[] {
  return [
    ...(status.openTasks > 0 ? [{title: 'Open tasks (no checkpoint until done)', detail: String(status.openTasks)}] : []),
    ...(status.optionalTasks > 0 ? [{title: 'Optional tasks open (they do not hold the checkpoint)', detail: String(status.optionalTasks)}] : []),
    ...(status.contracts === 0 ? [{title: 'No contracts', detail: ''}] : []),
    ...(status.nothingToCheck.length > 0 ? [{title: 'Nothing to check (verify, no acceptance criteria or steps)', detail: status.nothingToCheck.join(', ')}] : []),
    ...(status.retired === null ? [] : [{title: 'Human check retired', detail: status.retired}]),
    ...(status.weakenings.length > 0 ? [{title: 'Changed since approved (verify until a person approves it as it is)', detail: changedLines(status)}] : [])
  ]
}

/** The changes that lowered a slice’s bar, on one line. */
function changedLines(status: StatusExtras): string {
  return status.weakenings.map((weakening) => weakening.line).join('; ')
}

function recordedTimes(state: SliceState): string[] {
  return [
    ...state.rejections.flatMap((rejection) => [rejection.at, ...(rejection.routedAt === null ? [] : [rejection.routedAt])]),
    ...state.escalations.map((escalation) => escalation.at),
    ...(state.decision === null ? [] : [state.decision.at])
  ]
}

/** The latest of ISO times, `null` when there are none (or none reads as a time). */
function latest(times: readonly string[]): string | null {
  let best: string | null = null
  for (const time of times) if (!Number.isNaN(Date.parse(time)) && (best === null || Date.parse(time) > Date.parse(best))) best = time
  return best
}
