import {projectProblems, renderFingerprintNotes, renderVerificationSummary, verifySlices} from '@verification-tiers/evidence'
import type {CheckProgress} from '@verification-tiers/evidence'
import {findSlice, loadProject} from '@verification-tiers/project'
import {exitCodes, UserError} from '../errors.js'
import {whileInterruptible} from '../interrupt.js'
import {elapsedLine, progressLine} from '../verify-progress.js'
import {dirOf, warningsOf} from './shared.js'
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
  const runs = await whileInterruptible((signal) => verifySlices(project, slices, {timeoutSeconds: input.timeout ?? undefined, envAllow: input.envAllow, onCheck, signal}))
  progress?.(elapsedLine(checks, performance.now() - started))
  // What the gate could not read fails the run as a failing check does: CI must not pass a contract it never saw.
  const problems = projectProblems(project)
  const passed = runs.every((run) => run.all_automated_pass) && problems.length === 0
  const unread = problems.length === 0 ? [] : [`Not read or not matched (${problems.length}; nothing passes until each is resolved):\n${problems.map((line) => `  ${line}`).join('\n')}`]
  // Every run of one `tiers verify` shares its fingerprint: what it left out and what the checks wrote, said once.
  const notes = runs[0] ? renderFingerprintNotes(runs[0]) : ''
  return {
    text: [...runs.map(renderVerificationSummary), ...(notes ? [notes] : []), ...unread].join('\n\n'),
    // One slice’s data is its run as the status file keeps it, and what could not be read when there is any.
    data: id ? {...runs[0], ...(problems.length > 0 ? {problems} : {})} : {runs, problems, all_automated_pass: passed},
    warnings: warningsOf(project),
    exitCode: passed ? exitCodes.ok : exitCodes.user
  }
}
