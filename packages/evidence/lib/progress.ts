import path from 'node:path'
import {firstLine, heldGateContext} from '@verification-tiers/project'
import type {HeldContext, Project, ProjectSlice} from '@verification-tiers/project'
import {FileReadError, readSliceState} from '@verification-tiers/runtime'
import type {SliceState} from '@verification-tiers/runtime'
import type {Tier} from '@verification-tiers/contracts'
import type {SourceFingerprint} from './fingerprint.js'
import {judgeHistory} from './history.js'
import type {HistoryJudgement} from './history.js'
import {projectProblems} from './slice-evidence.js'
import {digested, heldThen, judgeFreshness, readVerificationStatus, statusPath} from './status.js'
import type {VerificationRun, VerificationStatus} from './status.js'
import type {RemainingCriterion, SliceJudgement} from './stop-hook.js'

/** Where one slice stands: done, or in progress as the stop hook judges it. */
export interface SliceProgress {
  judgement: SliceJudgement | {id: string; name: string; state: 'done'}
  /** A verify slice whose checkpoint was not decided for its contracts as they are: it waits for a person’s answer, whatever its run. */
  unanswered: boolean
  /** Its tier as judged: `verify` where a change lowered what a person approved. */
  tier: Tier
}

/**
 * Where each slice of the project stands: the one judgement of what is in
 * progress, which the stop hook holds on and `tiers status` shows.
 *
 * A slice is done when its latest run passes on the sources and contracts
 * as they are now and, for a verify slice, a person decided its checkpoint
 * (approved it, or accepted it at an escalation) for its contracts as they
 * are. Every other slice is in progress: never verified, its latest run
 * stale or failed, or its run passing while its checkpoint waits for the
 * person. Nothing the workflow writes of itself (`STATE.md`, slice files,
 * checked tasks) makes a slice done. A slice whose bar is lower than a
 * person approved (`heldGateContext`) is held at that bar, and is not
 * decided until they approve it as it is: each such change is a `changed`
 * line (old → new, and where).
 *
 * What cannot be read or matched (the project’s problems, a slice listing a
 * contract no file defines, a slice’s state file, a state file that lost
 * committed history: see `judgeHistory`) is a problem line, and that slice
 * is not judged; a status file that cannot be read counts as no run
 * (`broken` says why). State files no slice has are `notes`, named without
 * holding anything.
 */
export async function judgeProgress(
  project: Project,
  /** The project’s history as `judgeHistory` judged it, for a caller that has it already. */
  judged?: HistoryJudgement
): Promise<{slices: SliceProgress[]; problems: string[]; broken: string | null; notes: string[]; changed: string[]}> {
  const history = judged ?? (await judgeHistory(project))
  const problems = [...projectProblems(project), ...history.holds.map((hold) => hold.line)]
  const changed: string[] = []
  let status: VerificationStatus | null = null
  let broken: string | null = null
  try {
    status = await readVerificationStatus(project.dir)
    for (const slice of project.slices) {
      const run = status && Object.hasOwn(status.slices, slice.id) ? status.slices[slice.id] : undefined
      if (run) checkRun(statusPath(project.dir), slice.id, run)
    }
  } catch (error) {
    // A broken status file proves nothing: treat it as no run, and say so.
    if (!(error instanceof FileReadError)) throw error
    status = null
    broken = firstLine(error)
  }
  let fingerprint: (SourceFingerprint & {digests: Record<string, string> | null}) | null = null
  const slices: SliceProgress[] = []
  for (const slice of project.slices) {
    if (slice.missing.length > 0) {
      problems.push(`${path.join(project.dir, project.slicesFrom)}: slice ${slice.id} lists ${slice.missing.join(', ')}, which no contract file defines`)
      continue
    }
    let state: SliceState
    try {
      state = await readSliceState(project.dir, slice.id)
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error
      problems.push(firstLine(error))
      continue
    }
    const {decision} = state
    const {context, weakenings} = heldGateContext(project, slice, state)
    for (const weakening of weakenings) changed.push(weakening.line)
    const {id, name} = slice
    // A lower bar than a person approved is not decided until they approve it as it is.
    const decided = decision !== null && decision.contractsHash === context.contractsHash && weakenings.length === 0
    const unanswered = context.slice.tier === 'verify' && !decided
    const run = status && Object.hasOwn(status.slices, id) ? status.slices[id] : undefined
    if (!run) {
      slices.push({judgement: {id, name, state: 'not-run', remaining: sliceCriteria(slice, context)}, unanswered, tier: context.slice.tier})
      continue
    }
    fingerprint ??= await digested(project)
    const freshness = judgeFreshness(run, {...fingerprint, contractsHash: context.contractsHash}, heldThen(status, run))
    if (freshness.state === 'fresh') {
      const manual = run.results
        .filter((result) => result.status === 'requires-human')
        .map((result) => ({id: result.criterion_id, text: result.text, forPerson: true}))
      slices.push({judgement: unanswered ? {id, name, state: 'passed', manual} : {id, name, state: 'done'}, unanswered, tier: context.slice.tier})
    } else if (freshness.state === 'stale') {
      const judgement = {
        id,
        name,
        state: 'stale',
        run: freshness.run.verification_run.timestamp,
        changed: freshness.changed,
        remaining: sliceCriteria(slice, context)
      } as const
      slices.push({judgement, unanswered, tier: context.slice.tier})
    } else if (freshness.state === 'failed') {
      slices.push({
        judgement: {
          id,
          name,
          state: 'failed',
          failures: freshness.failures.map((result) => ({id: result.criterion_id, details: result.details, output: outputTail(result.output)}))
        },
        unanswered,
        tier: context.slice.tier
      })
    }
  }
  return {slices, problems, broken, notes: history.orphans, changed}
}

/**
 * The criteria `tiers verify` checks for a slice, as it names them: each with
 * a command, and each of a verify contract without one, which a person
 * confirms at the checkpoint (`forPerson`).
 */
function sliceCriteria(slice: ProjectSlice, context: HeldContext['context']): RemainingCriterion[] {
  return slice.contracts.flatMap(({contract}, position) =>
    contract.criteria.flatMap((criterion, index): RemainingCriterion[] => {
      const id = `${contract.id ?? contract.name}.${index + 1}`
      if (criterion.check?.command) return [{id, text: criterion.text, forPerson: false}]
      return context.slice.contracts[position]?.tierInSlice === 'verify' ? [{id, text: criterion.text, forPerson: true}] : []
    })
  )
}

/** What the judgement reads of a run, which the status file’s reader does not check. */
function checkRun(file: string, id: string, run: VerificationRun): void {
  const seen = run.verification_run as Partial<VerificationRun['verification_run']> | null | undefined
  const nullableText = (value: unknown) => value === null || typeof value === 'string'
  if (typeof seen !== 'object' || seen === null || typeof seen.contracts_hash !== 'string' || !nullableText(seen.git_head) || !nullableText(seen.worktree)) {
    throw new FileReadError(file, `Unexpected run for \`${id}\`, expected \`verification_run\` with \`contracts_hash\`, \`git_head\` and \`worktree\``)
  }
  for (const [index, result] of run.results.entries()) {
    const value = result as Partial<typeof result> | null
    if (typeof value !== 'object' || value === null || typeof value.criterion_id !== 'string' || typeof value.status !== 'string') {
      throw new FileReadError(file, `Unexpected result ${index + 1} of \`${id}\`, expected \`criterion_id\` and \`status\``)
    }
  }
}

/** The lines of a failing check’s output the hold shows: enough to act on, bounded whatever the check printed. */
const tailLines = 8
const tailWidth = 200

/**
 * The end of a failing check’s output as the stop hook shows it: its last
 * lines that hold anything, each cut to a width, indented under the
 * failure; `null` when it printed nothing.
 */
export function outputTail(output: string | null | undefined): string | null {
  if (!output) return null
  const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '')
  if (lines.length === 0) return null
  const kept = lines.slice(-tailLines).map((line) => `      ${line.length > tailWidth ? `${line.slice(0, tailWidth - 1)}…` : line}`)
  const cut = lines.length > tailLines ? [`      (last ${tailLines} of ${lines.length} lines)`] : []
  return [...cut, ...kept].join('\n')
}
