import {formatProblem, UserError} from '@verification-tiers/project'
import type {Project, ProjectSlice} from '@verification-tiers/project'
import type {GateContext} from '@verification-tiers/runtime'
import {sliceHistoryHolds} from './history.js'
import {digested, heldThen, judgeFreshness, readVerificationStatus} from './status.js'
import type {Freshness} from './status.js'

/**
 * What the gate could not read, match or prove in the project, one line each
 * (`file:line: message`): while there is any, no checkpoint says “ALL TESTS
 * PASSING” and no approval is taken.
 */
export function projectProblems(project: Project): string[] {
  return project.problems.map(formatProblem)
}

/**
 * The open tasks of a slice (its tool’s `tasks.md`), one line each
 * (`file:line: text`): while there is any, the slice is not ready for its
 * checkpoint. Ticked tasks prove nothing on their own, so none is listed.
 */
export function openTaskLines(slice: Pick<ProjectSlice, 'openTasks'>): string[] {
  return slice.openTasks.map((task) => `${task.file}:${task.line}: ${task.text}`)
}

/** The open tasks of the slice `id` of the project (none for a slice it does not have). */
function openTasksOf(project: Project, id: string): string[] {
  const slice = project.slices.find((each) => each.id === id)
  return slice ? openTaskLines(slice) : []
}

/**
 * How the slice’s latest verification run stands against the sources and
 * contracts as they are now. A checkpoint opens only on a fresh passing run,
 * never on a claim.
 */
export async function sliceFreshness(project: Project, context: GateContext): Promise<Freshness> {
  const status = await readVerificationStatus(project.dir)
  const run = status?.slices[context.slice.id]
  return judgeFreshness(run, {...(await digested(project)), contractsHash: context.contractsHash}, run && heldThen(status, run))
}

/**
 * Refuse an approval of a slice whose checkpoint was not shown on a fresh
 * passing run, or while the project has problems or the slice’s state lost
 * committed history, with a `UserError` that says what to run. An approval answers
 * a checkpoint: without such a run the user approved something that was
 * never shown as passing, or that changed since. An auto slice has no
 * checkpoint to approve.
 */
export async function checkApprovable(project: Project, context: GateContext): Promise<void> {
  const {slice} = context
  const problems = [...projectProblems(project), ...(await sliceHistoryHolds(project, slice.id))]
  if (problems.length > 0) {
    throw new UserError(
      `Unexpected approval of slice ${slice.id}: the gate could not read or match part of the project (${problems.join('; ')}), expected none: fix it, then run \`tiers verify ${slice.id}\` and \`tiers checkpoint ${slice.id}\``
    )
  }
  const open = openTasksOf(project, slice.id)
  if (open.length > 0) {
    throw new UserError(
      `Unexpected approval of slice ${slice.id} with ${open.length} open task${open.length === 1 ? '' : 's'} (${open.join('; ')}), expected every task done: finish them, then run \`tiers verify ${slice.id}\` and \`tiers checkpoint ${slice.id}\``
    )
  }
  if (slice.tier === 'auto') {
    throw new UserError(`Unexpected approval: slice ${slice.id} is auto (every contract is auto) and has no checkpoint to approve, expected no reply for it`)
  }
  const freshness = await sliceFreshness(project, context)
  if (freshness.state === 'fresh') return
  let why: string
  if (freshness.state === 'missing') why = `slice ${slice.id} was never verified`
  else if (freshness.state === 'failed')
    why = `slice ${slice.id} failed its latest verification (${freshness.failures.map((result) => result.criterion_id).join(', ')})`
  else why = `the latest verification of slice ${slice.id} is stale (${freshness.changed.join('; ')})`
  throw new UserError(
    `Unexpected approval: ${why}, expected its checkpoint shown on fresh passing verification first: run \`tiers verify ${slice.id}\`, then \`tiers checkpoint ${slice.id}\``
  )
}
