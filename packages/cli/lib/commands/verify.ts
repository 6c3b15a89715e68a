import {projectProblems, renderFingerprintNotes, renderVerificationSummary, verifySlices} from '@verification-tiers/evidence'
import type {AfterRun, CheckProgress, VerificationRun} from '@verification-tiers/evidence'
import {findSlice, gateContext, loadProject} from '@verification-tiers/project'
import type {Project} from '@verification-tiers/project'
import {FileReadError, readSliceState} from '@verification-tiers/runtime'
import {exitCodes, UserError} from '../errors.js'
import {whileInterruptible} from '../interrupt.js'
import {elapsedLine, progressLine} from '../verify-progress.js'
import {dirOf, warningsOf, whyAuto} from './shared.js'
import type {Command} from './shared.js'

export const verify: Command = async (input) => {
  const [id] = input.positionals
  if (input.all === Boolean(id)) throw new UserError('Unexpected arguments, expected `tiers verify <slice>` or `tiers verify --all`')
  const project = await loadProject(await dirOf(input))
  const slices = id ? [findSlice(project, id)] : project.slices
  // At a terminal, each check as it ends and the time taken, on stderr: the run may take minutes, and stdout stays the report.
  const {progress} = input
  const started = performance.now()
  let checks = 0
  const onCheck = progress
    ? (ended: CheckProgress) => {
        checks++
        progress(progressLine(ended))
      }
    : undefined
  const runs = await whileInterruptible((signal) =>
    verifySlices(project, slices, {timeoutSeconds: input.timeout ?? undefined, envAllow: input.envAllow, onCheck, signal})
  )
  progress?.(elapsedLine(checks, performance.now() - started))
  // What the gate could not read fails the run as a failing check does: CI must not pass a contract it never saw.
  const problems = projectProblems(project)
  const passed = runs.every((run) => run.all_automated_pass) && problems.length === 0
  const unread =
    problems.length === 0
      ? []
      : [`Not read or not matched (${problems.length}; nothing passes until each is resolved):\n${problems.map((line) => `  ${line}`).join('\n')}`]
  // Every run of one `tiers verify` shares its fingerprint: what it left out and what the checks wrote, said once.
  const notes = runs[0] ? renderFingerprintNotes(runs[0]) : ''
  const summaries: string[] = []
  for (const run of runs) summaries.push(renderVerificationSummary(run, await afterRun(project, run)))
  return {
    text: [...summaries, ...(notes ? [notes] : []), ...unread].join('\n\n'),
    // One slice’s data is its run as the status file keeps it, and what could not be read when there is any.
    data: id ? {...runs[0], ...(problems.length > 0 ? {problems} : {})} : {runs, problems, all_automated_pass: passed},
    warnings: warningsOf(project),
    exitCode: passed ? exitCodes.ok : exitCodes.user
  }
}

/**
 * What a passing run leaves of its slice: nothing when the slice is auto or
 * its checkpoint was decided (approved, or accepted) for its contracts as
 * they are; else its checkpoint. A state file that cannot be read leaves
 * the checkpoint, which says why.
 */
async function afterRun(project: Project, run: VerificationRun): Promise<AfterRun> {
  const id = run.verification_run.slice
  const slice = project.slices.find((each) => each.id === id)
  if (!slice || slice.missing.length > 0) return {kind: 'checkpoint'}
  const context = gateContext(project, slice)
  if (context.slice.tier === 'auto') return {kind: 'done', why: `slice ${id} is auto (${whyAuto(context.slice)})`}
  try {
    const {decision} = await readSliceState(project.dir, id)
    if (decision !== null && decision.contractsHash === context.contractsHash)
      return {kind: 'done', why: `slice ${id} was ${decision.status} ${decision.at} for its contracts as they are`}
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error
  }
  return {kind: 'checkpoint'}
}
