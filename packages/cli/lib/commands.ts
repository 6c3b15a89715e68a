import {
  decideStop,
  judgeFreshness,
  readStopBlocks,
  readVerificationStatus,
  recordStopDecision,
  renderVerificationSummary,
  stopHookOutput
} from '@verification-tiers/evidence'
import type {Freshness, VerificationStatus} from '@verification-tiers/evidence'
import {defaultMaxStopBlocks, escalationOptions} from '@verification-tiers/protocol'
import path from 'node:path'
import {describeJsonError, FileReadError, isHardFail, isPass, parseVerdict, toJobStatus} from '@verification-tiers/runtime'
import {
  deprecationWarning,
  escalationData,
  readSliceState,
  recordEscalation,
  recordResponse,
  recordRoute,
  renderEscalation,
  renderPartial,
  renderRejectionOptions,
  renderRoute,
  renderTierReport,
  renderVerifyCheckpoint,
  sliceStatus,
  tierReport,
  verifyCheckpointData
} from '@verification-tiers/runtime'
import type {SliceStatus} from '@verification-tiers/runtime'
import {exitCodes, UserError} from './errors.js'
import {projectFingerprint, verifySlices} from './verify.js'
import {findSlice, gateContext, loadProject} from './project.js'
import type {Project} from './project.js'

/** What a command gives: text for people, data for `--json`. */
export interface CommandResult {
  text: string
  data: Record<string, unknown>
  warnings: string[]
  /** When the command ran but its answer is “no” (a failed check, a closed gate). */
  exitCode?: number
  /** Print `data` as JSON whatever the format (the stop-hook protocol). */
  raw?: boolean
}

/** Arguments every command gets. */
export interface CommandInput {
  /** `--dir`, when given. */
  dir: string | null
  positionals: string[]
  detail: string | null
  timeout: number | null
  all: boolean
  format: 'text' | 'json' | 'yaml'
  /** Standard input, read on demand. */
  stdin: () => Promise<string>
}

type Command = (input: CommandInput) => Promise<CommandResult>

/** The project folder: `--dir`, else `.greenlight` in the working directory. */
export const defaultDir = '.greenlight'
const dirOf = (input: CommandInput) => input.dir ?? defaultDir

const heading = (title: string, slice: {id: string; name: string}) => `${title} — Slice ${slice.id}: ${slice.name}`

async function open(input: CommandInput, usage: string, count: number) {
  const [id] = input.positionals
  if (input.positionals.length < count || !id) throw new UserError(`Unexpected arguments, expected \`${usage}\``)
  const project = await loadProject(dirOf(input))
  const context = gateContext(project, findSlice(project, id))
  return {project, context, warnings: warningsOf(project)}
}

function warningsOf(project: Project): string[] {
  const warning = deprecationWarning(project.config)
  return warning ? [warning] : []
}

export const checkpoint: Command = async (input) => {
  const {project, context, warnings} = await open(input, 'tiers checkpoint <slice>', 1)
  const {slice} = context
  if (slice.tier === 'auto') {
    return {
      text: `Slice ${slice.id}: ${slice.name} is auto: every contract is auto, so no checkpoint is needed.`,
      data: {slice: slice.id, name: slice.name, tier: slice.tier, checkpoint: null},
      warnings
    }
  }
  // The checkpoint opens only on a fresh passing run, never on a claim.
  const freshness = judgeFreshness((await readVerificationStatus(project.dir))?.slices[slice.id], {
    ...(await projectFingerprint(project)),
    contractsHash: context.contractsHash
  })
  if (freshness.state !== 'fresh') {
    const text = renderEvidenceRefusal(slice, freshness)
    return {text, data: {slice: slice.id, name: slice.name, tier: slice.tier, evidence: describeFreshness(freshness), checkpoint: null}, warnings, exitCode: exitCodes.user}
  }
  const text = renderVerifyCheckpoint(verifyCheckpointData(slice))
  return {
    text,
    data: {slice: slice.id, name: slice.name, tier: slice.tier, evidence: describeFreshness(freshness), criteria: slice.criteria, steps: slice.steps, checkpoint: text},
    warnings
  }
}

function renderEvidenceRefusal(slice: {id: string; name: string}, freshness: Exclude<Freshness, {state: 'fresh'}>): string {
  const titles = {missing: 'MISSING', failed: 'FAILED', stale: 'STALE'} as const
  return renderPartial('evidence-refusal', {
    title: titles[freshness.state],
    sliceId: slice.id,
    sliceName: slice.name,
    missing: freshness.state === 'missing',
    timestamp: freshness.state === 'missing' ? '' : freshness.run.verification_run.timestamp,
    failures: freshness.state === 'failed' ? freshness.failures.map((result) => ({id: result.criterion_id, details: result.details})) : [],
    changed: freshness.state === 'stale' ? freshness.changed : []
  })
}

function describeFreshness(freshness: Freshness) {
  return {
    state: freshness.state,
    run: freshness.state === 'missing' ? null : freshness.run.verification_run.timestamp,
    failures: freshness.state === 'failed' ? freshness.failures.map((result) => result.criterion_id) : [],
    changed: freshness.state === 'stale' ? freshness.changed : []
  }
}

export const respond: Command = async (input) => {
  const {context, warnings} = await open(input, 'tiers respond <slice> <text…>', 2)
  const text = input.positionals.slice(1).join(' ')
  const result = await recordResponse(context, text)
  const {slice} = context
  const base = {slice: slice.id, name: slice.name, rejectionCount: result.state.rejectionCount}
  if (result.kind === 'approved') {
    return {
      text: `${heading('APPROVED', slice)}\n\nRecorded. The slice is complete: go on to summary and docs.`,
      data: {...base, outcome: 'approved', decision: result.state.decision},
      warnings
    }
  }
  if (result.escalate) {
    const escalation = renderEscalation(escalationData(slice, result.state))
    return {
      text: `${escalation}\n\nRecord the choice: tiers escalate ${slice.id} <1|2|3>`,
      data: {...base, outcome: 'escalation', threshold: result.threshold, feedback: text, escalation},
      warnings
    }
  }
  const options = renderRejectionOptions({feedback: text})
  return {
    text: `${options}\n\nRejection ${result.state.rejectionCount} of ${result.threshold} recorded. Record the choice: tiers route ${slice.id} <1|2|3> [--detail <text>]`,
    data: {...base, outcome: 'rejected', threshold: result.threshold, feedback: text, options},
    warnings
  }
}

export const route: Command = async (input) => {
  const {context, warnings} = await open(input, 'tiers route <slice> <1|2|3> [--detail <text>]', 2)
  const {route: routed, state} = await recordRoute(context, input.positionals[1]!, input.detail)
  return {text: renderRoute(routed), data: {...routed, rejectionCount: state.rejectionCount}, warnings}
}

export const escalate: Command = async (input) => {
  const {context, warnings} = await open(input, 'tiers escalate <slice> <1|2|3>', 2)
  const {option, state} = await recordEscalation(context, input.positionals[1]!)
  const {slice} = context
  let next: string
  if (option.decision === 'rescope') next = 'Recorded. Revise the contracts with the user and restart the slice; its rejection count starts again at 0.'
  else if (option.decision === 'pair') next = 'Recorded. Collect the user’s step-by-step guidance, route it with `tiers route ' + slice.id + ' 3 --detail <text>`, then present the checkpoint when it is ready.'
  else {
    const mismatch = state.decision?.mismatch ?? []
    next = `Recorded. The slice is accepted as auto with the mismatch acknowledged but deferred:\n${mismatch.map((feedback) => `  - "${feedback}"`).join('\n')}`
  }
  return {
    text: `${heading(option.title.toUpperCase(), slice)}\n\n${next}`,
    data: {slice: slice.id, name: slice.name, choice: option.choice, decision: option.decision, rejectionCount: state.rejectionCount, state: state.decision},
    warnings
  }
}

export const status: Command = async (input) => {
  const project = await loadProject(dirOf(input))
  const [id] = input.positionals
  const slices = id ? [findSlice(project, id)] : project.slices.filter((slice) => slice.missing.length === 0)
  const statuses: SliceStatus[] = []
  for (const slice of slices) statuses.push(await sliceStatus(gateContext(project, slice)))
  const broken = id ? [] : project.slices.filter((slice) => slice.missing.length > 0)
  const lines = statuses.map(describeStatus)
  for (const slice of broken) lines.push(`${slice.id} ${slice.name}: GRAPH.json lists ${slice.missing.join(', ')}, which no contract file defines`)
  return {
    text: lines.join('\n'),
    data: {slices: statuses, broken: broken.map((slice) => ({slice: slice.id, missing: slice.missing}))},
    warnings: warningsOf(project)
  }
}

export const report: Command = async (input) => {
  // The report lists the deprecation among its own warnings.
  const {project, context} = await open(input, 'tiers report <slice>', 1)
  const data = tierReport(context.slice, project.config)
  const state = await readSliceState(project.dir, context.slice.id)
  return {text: renderTierReport(data), data: {...data, rejectionCount: state.rejectionCount}, warnings: []}
}

function describeStatus(status: SliceStatus): string {
  let decision = 'undecided'
  if (status.decision) {
    decision = `${status.decision.status} ${status.decision.at}${status.stale ? ' (stale: contracts changed since)' : ''}`
  }
  return `${status.slice} ${status.name}: ${status.tier}, ${status.rejectionCount}/${status.threshold} rejections, ${decision}, next: ${status.next}`
}

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
    const output = {systemMessage: `WARNING: ${oneLineMessage(error as Error)}; the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.`}
    return {text: JSON.stringify(output), data: output, warnings: [], raw: true}
  }
  let status: VerificationStatus | null = null
  let broken: string | null = null
  try {
    status = await freshStatus(project)
  } catch (error) {
    // A broken status file proves nothing: treat it as no run, and say so.
    if (!(error instanceof FileReadError)) throw error
    broken = oneLineMessage(error as Error)
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

function oneLineMessage(error: Error): string {
  return error.message.split('\n')[0] ?? error.message
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

/** The commands by name. */
export const commands: Readonly<Record<string, Command>> = {
  checkpoint,
  respond,
  route,
  escalate,
  status,
  report,
  verify,
  'stop-hook': stopHook,
  verdict
}

/** For help text. */
export const escalationChoices = escalationOptions.map((option) => `${option.choice} ${option.title}`).join(', ')
