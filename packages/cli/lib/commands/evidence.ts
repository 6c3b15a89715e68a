import path from 'node:path'
import {decideStop, judgeFreshness, readStopBlocks, readVerificationStatus, recordStopDecision, renderVerificationSummary, stopHookOutput} from '@verification-tiers/evidence'
import type {VerificationStatus} from '@verification-tiers/evidence'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol'
import {describeJsonError, FileReadError, isHardFail, isPass, parseVerdict, toJobStatus} from '@verification-tiers/runtime'
import {exitCodes, firstLine, UserError} from '../errors.js'
import {findSlice, gateContext, loadProject} from '../project.js'
import type {Project} from '../project.js'
import {projectFingerprint, verifySlices} from '../verify.js'
import {defaultDir, dirOf, warningsOf} from './shared.js'
import type {Command} from './shared.js'

export const verify: Command = async (input) => {
  const [id] = input.positionals
  if (input.all === Boolean(id)) throw new UserError('Unexpected arguments, expected `tiers verify <slice>` or `tiers verify --all`')
  const project = await loadProject(dirOf(input))
  const slices = id ? [findSlice(project, id)] : project.slices
  const runs = await verifySlices(project, slices, {timeoutSeconds: input.timeout ?? undefined})
  const passed = runs.every((run) => run.all_automated_pass)
  return {
    text: runs.map(renderVerificationSummary).join('\n\n'),
    data: id ? {...runs[0]} : {runs, all_automated_pass: passed},
    warnings: warningsOf(project),
    exitCode: passed ? exitCodes.ok : exitCodes.user
  }
}

export const stopHook: Command = async (input) => {
  const text = await input.stdin()
  let value: unknown
  try {
    value = text.trim() === '' ? {} : JSON.parse(text)
  } catch (error) {
    throw new UserError(`Unexpected stop-hook input (${describeJsonError(text, error)}), expected the hook’s JSON on standard input`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`
    throw new UserError(`Unexpected stop-hook input (${kind}), expected the hook’s JSON object on standard input`)
  }
  const hook = value as {session_id?: unknown; cwd?: unknown}
  const max = maxStopBlocks()
  const cwd = typeof hook.cwd === 'string' ? hook.cwd : process.cwd()
  const dir = input.dir ?? path.join(cwd, defaultDir)
  const session = typeof hook.session_id === 'string' && hook.session_id !== '' ? hook.session_id : 'default'
  let project
  try {
    project = await loadProject(dir)
  } catch (error) {
    // No contracts here: not a verification-tiers project, so not ours to hold.
    if (error instanceof UserError) return {text: '{}', data: {}, warnings: [], raw: true}
    throw error
  }
  const remaining = project.contracts.flatMap(({contract}) =>
    contract.criteria.flatMap((criterion, index) => (criterion.check?.command ? [{id: `${contract.id ?? contract.name}.${index + 1}`, text: criterion.text}] : []))
  )
  let blocks: number
  try {
    blocks = await readStopBlocks(dir, session)
  } catch (error) {
    // Without its count the safety valve cannot work: let the agent stop rather than hold it forever.
    if (!(error instanceof FileReadError)) throw error
    const output = {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.`}
    return {text: JSON.stringify(output), data: output, warnings: [], raw: true}
  }
  let status: VerificationStatus | null = null
  let broken: string | null = null
  try {
    status = await freshStatus(project)
  } catch (error) {
    // A broken status file proves nothing: treat it as no run, and say so.
    if (!(error instanceof FileReadError)) throw error
    broken = firstLine(error)
  }
  const decision = decideStop({status, broken, blocks, maxBlocks: max, remaining})
  await recordStopDecision(dir, session, decision)
  const output = stopHookOutput(decision)
  return {text: JSON.stringify(output), data: output, warnings: [], raw: true}
}

/**
 * The status file, or `null` when a recorded run no longer matches the
 * sources or contracts: a run from before the last change proves nothing.
 */
async function freshStatus(project: Project) {
  const status = await readVerificationStatus(project.dir)
  if (!status) return null
  const fingerprint = await projectFingerprint(project)
  for (const [id, run] of Object.entries(status.slices)) {
    const slice = project.slices.find((candidate) => candidate.id === id)
    if (!slice || slice.missing.length > 0) return null
    const freshness = judgeFreshness(run, {...fingerprint, contractsHash: gateContext(project, slice).contractsHash})
    if (freshness.state === 'stale') return null
  }
  return status
}

function maxStopBlocks(): number {
  const value = process.env.TIERS_MAX_BLOCKS
  if (value === undefined || value === '') return defaultMaxStopBlocks
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new UserError(`Unexpected TIERS_MAX_BLOCKS \`${value}\`, expected a whole number of 1 or more`)
  return number
}

export const verdict: Command = async (input) => {
  const text = input.positionals.length === 0 || (input.positionals.length === 1 && input.positionals[0] === '-') ? await input.stdin() : input.positionals.join(' ')
  const parsed = parseVerdict(text)
  const jobStatus = toJobStatus(parsed.verdict)
  return {
    text: `${parsed.verdict} (job: ${jobStatus})${parsed.message ? `: ${parsed.message}` : ''}`,
    data: {verdict: parsed.verdict, message: parsed.message, isPass: isPass(parsed.verdict), isHardFail: isHardFail(parsed.verdict), jobStatus},
    warnings: [],
    exitCode: isPass(parsed.verdict) ? exitCodes.ok : exitCodes.user
  }
}
