import {FileReadError} from '@verification-tiers/runtime'
import {firstLine, gateContext, loadProject, ProjectError, UserError} from '@verification-tiers/project'
import type {Project} from '@verification-tiers/project'
import {judgeFreshness, readVerificationStatus, statusPath} from './status.js'
import type {VerificationRun, VerificationStatus} from './status.js'
import {decideStop, readStopBlocks, recordStopDecision, stopHookOutput} from './stop-hook.js'
import type {StopDecision} from './stop-hook.js'
import {projectFingerprint} from './verify.js'

/**
 * A coding agent’s Stop hook answered for the project folder `dir`: the JSON
 * object the agent reads. Never throws: the agent reads a failed hook as a
 * block, which no safety valve could ever end. A problem with the project
 * or tiers’ own files blocks, naming the file, under the safety valve
 * (`maxBlocks` blocks in a row per session); when even the blocks cannot be
 * counted, the agent may stop, with a warning. A folder without contracts is
 * not a verification-tiers project, so not the hook’s to hold.
 */
export async function answerStopHook(dir: string, session: string, maxBlocks: number): Promise<Record<string, string>> {
  let project: Project | null = null
  let problem: string | null = null
  try {
    project = await loadProject(dir)
  } catch (error) {
    if (error instanceof UserError) return {}
    problem = describeProblem(error)
  }
  let blocks: number
  try {
    blocks = await readStopBlocks(dir, session)
  } catch (error) {
    // Without its count the safety valve cannot work: let the agent stop rather than hold it forever.
    return {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.`}
  }
  let decision: StopDecision
  try {
    decision = project ? await decideProject(project, blocks, maxBlocks) : decideStop({status: null, problem, blocks, maxBlocks, remaining: []})
  } catch (error) {
    decision = decideStop({status: null, problem: describeProblem(error), blocks, maxBlocks, remaining: []})
  }
  try {
    await recordStopDecision(dir, session, decision)
  } catch (error) {
    // A block that cannot be counted could hold the agent forever: let it stop, saying what the hook would have said.
    const said = decision.reason ?? decision.systemMessage
    const unchecked = decision.decision === 'block' ? `\nThe stop hook would have blocked: ${said}` : said ? `\n${said}` : ''
    return {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop.${unchecked}`}
  }
  return stopHookOutput(decision)
}

/** Decide by the status file, where a broken one counts as no run. */
async function decideProject(project: Project, blocks: number, maxBlocks: number): Promise<StopDecision> {
  const remaining = project.contracts.flatMap(({contract}) =>
    contract.criteria.flatMap((criterion, index) => (criterion.check?.command ? [{id: `${contract.id ?? contract.name}.${index + 1}`, text: criterion.text}] : []))
  )
  let status: VerificationStatus | null = null
  let broken: string | null = null
  try {
    status = await freshStatus(project)
  } catch (error) {
    // A broken status file proves nothing: treat it as no run, and say so.
    if (!(error instanceof FileReadError)) throw error
    broken = firstLine(error)
  }
  return decideStop({status, broken, blocks, maxBlocks, remaining})
}

/** A file and what is wrong with it, or an error the hook did not expect, in one line. */
function describeProblem(error: unknown): string {
  if (error instanceof ProjectError || error instanceof FileReadError) return firstLine(error)
  const name = error instanceof Error ? error.name : 'error'
  return `Unexpected ${name} in tiers stop-hook (${firstLine(error)}), expected none: please report it`
}

/**
 * The status file with the runs of the project’s slices, or `null` when there
 * is none or a run no longer matches the sources or contracts: a run from
 * before the last change proves nothing. Runs of slices the project no longer
 * has are left out; a run of the project’s that is not a run throws a
 * `FileReadError` naming the file.
 */
async function freshStatus(project: Project): Promise<VerificationStatus | null> {
  const status = await readVerificationStatus(project.dir)
  if (!status) return null
  const slices = Object.create(null) as VerificationStatus['slices']
  let fingerprint: Awaited<ReturnType<typeof projectFingerprint>> | null = null
  for (const [id, run] of Object.entries(status.slices)) {
    const slice = project.slices.find((candidate) => candidate.id === id)
    if (!slice) continue
    checkRun(statusPath(project.dir), id, run)
    if (slice.missing.length > 0) return null
    fingerprint ??= await projectFingerprint(project)
    const freshness = judgeFreshness(run, {...fingerprint, contractsHash: gateContext(project, slice).contractsHash})
    if (freshness.state === 'stale') return null
    slices[id] = run
  }
  if (Object.keys(slices).length === 0) return null
  return {...status, slices}
}

/** What the stop hook reads of a run, which the status file’s reader does not check. */
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
