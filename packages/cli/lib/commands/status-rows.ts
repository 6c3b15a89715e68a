import type {SliceProgress} from '@verification-tiers/evidence/gate'
import {FileReadError, readSliceState} from '@verification-tiers/runtime'
import type {SliceState, SliceStatus} from '@verification-tiers/runtime'
import type {StatusNote, StatusRow} from '../status-table.js'

/** Where a slice stands by the one judgement the stop hook holds on (`judgeProgress`): `done`, or in progress; `null` when it could not be judged. */
export type ProgressState = SliceProgress['judgement']['state']

/** A slice’s status with where it stands: what it waits for, `verify` while it has no passing run on the sources as they are. */
export interface SliceProgressStatus extends Omit<SliceStatus, 'next'> {
  next: SliceStatus['next'] | 'verify'
  progress: ProgressState | null
  inProgress: boolean | null
}

/**
 * The status of a slice with its progress: done by the judgement, it waits
 * for nothing; never verified, stale or failed, for a run (`verify`) unless
 * a rejection waits for its route or an escalation for its choice first;
 * passing, for what its checkpoint waits for.
 */
export function withProgress(status: SliceStatus, progress: ProgressState | null): SliceProgressStatus {
  let next: SliceProgressStatus['next'] = status.next
  if (progress === 'done') next = 'done'
  else if (progress !== null && progress !== 'passed' && next !== 'route' && next !== 'escalation') next = 'verify'
  return {...status, next, progress, inProgress: progress === null ? null : progress !== 'done'}
}

/** The progress of a slice in a line of `tiers status`: its run as it stands now. */
export function progressWords(progress: ProgressState | null): string | null {
  if (progress === null) return null
  return {'not-run': 'never verified', stale: 'run stale', failed: 'run failed', passed: 'run passes', done: 'run passes'}[progress]
}

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
  /** What the tool's workflow recorded of a person's answers (GSD's UAT files), one line each: shown, never an answer. */
  records: ReadonlyArray<{text: string}>
}

/**
 * The rows of the terminal table: each slice's state, whether it is in
 * progress, and the time of the latest thing recorded for it (its latest
 * verification run, a reply, a route, an escalation, a decision).
 */
export async function statusRows(dir: string, statuses: ReadonlyArray<SliceProgressStatus & StatusExtras>): Promise<StatusRow[]> {
  // The runs’ times, for the last activity of the table alone.
  const {readVerificationStatus} = await import('@verification-tiers/evidence/gate')
  // A status file that cannot be read counts as no run, as the judgement says under the table.
  const runs =
    (
      await readVerificationStatus(dir).catch((error: unknown) => {
        if (error instanceof FileReadError) return null
        throw error
      })
    )?.slices ?? {}
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
      inProgress: status.inProgress,
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
    ...(status.weakenings.length > 0 ? [`changed since approved (verify until a person approves it as it is): ${changedLines(status)}`] : []),
    ...status.records.map((record) => record.text)
  ]
}

/** The same, as the table groups them under a title. */
function tableNotes(status: StatusExtras): StatusNote[] {
  return [
    ...(status.openTasks > 0 ? [{title: 'Open tasks (no checkpoint until done)', detail: String(status.openTasks)}] : []),
    ...(status.optionalTasks > 0 ? [{title: 'Optional tasks open (they do not hold the checkpoint)', detail: String(status.optionalTasks)}] : []),
    ...(status.contracts === 0 ? [{title: 'No contracts', detail: ''}] : []),
    ...(status.nothingToCheck.length > 0
      ? [{title: 'Nothing to check (verify, no acceptance criteria or steps)', detail: status.nothingToCheck.join(', ')}]
      : []),
    ...(status.retired === null ? [] : [{title: 'Human check retired', detail: status.retired}]),
    ...(status.weakenings.length > 0 ? [{title: 'Changed since approved (verify until a person approves it as it is)', detail: changedLines(status)}] : []),
    ...status.records.map((record) => ({title: 'Recorded by the workflow', detail: record.text}))
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
