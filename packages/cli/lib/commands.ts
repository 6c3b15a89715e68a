import {escalationOptions} from '@verification-tiers/protocol'
import {
  deprecationWarning,
  escalationData,
  readSliceState,
  recordEscalation,
  recordResponse,
  recordRoute,
  renderEscalation,
  renderRejectionOptions,
  renderRoute,
  renderTierReport,
  renderVerifyCheckpoint,
  sliceStatus,
  tierReport,
  verifyCheckpointData
} from '@verification-tiers/runtime'
import type {SliceStatus} from '@verification-tiers/runtime'
import {UserError} from './errors.js'
import {findSlice, gateContext, loadProject} from './project.js'
import type {Project} from './project.js'

/** What a command gives: text for people, data for `--json`. */
export interface CommandResult {
  text: string
  data: Record<string, unknown>
  warnings: string[]
}

/** Arguments every command gets. */
export interface CommandInput {
  dir: string
  positionals: string[]
  detail: string | null
}

type Command = (input: CommandInput) => Promise<CommandResult>

const heading = (title: string, slice: {id: string; name: string}) => `${title} — Slice ${slice.id}: ${slice.name}`

async function open(input: CommandInput, usage: string, count: number) {
  const [id] = input.positionals
  if (input.positionals.length < count || !id) throw new UserError(`Unexpected arguments, expected \`${usage}\``)
  const project = await loadProject(input.dir)
  const context = gateContext(project, findSlice(project, id))
  return {project, context, warnings: warningsOf(project)}
}

function warningsOf(project: Project): string[] {
  const warning = deprecationWarning(project.config)
  return warning ? [warning] : []
}

export const checkpoint: Command = async (input) => {
  const {context, warnings} = await open(input, 'tiers checkpoint <slice>', 1)
  const {slice} = context
  if (slice.tier === 'auto') {
    return {
      text: `Slice ${slice.id}: ${slice.name} is auto: every contract is auto, so no checkpoint is needed.`,
      data: {slice: slice.id, name: slice.name, tier: slice.tier, checkpoint: null},
      warnings
    }
  }
  const text = renderVerifyCheckpoint(verifyCheckpointData(slice))
  return {text, data: {slice: slice.id, name: slice.name, tier: slice.tier, criteria: slice.criteria, steps: slice.steps, checkpoint: text}, warnings}
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
  const project = await loadProject(input.dir)
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

/** The commands by name. */
export const commands: Readonly<Record<string, Command>> = {checkpoint, respond, route, escalate, status, report}

/** For help text. */
export const escalationChoices = escalationOptions.map((option) => `${option.choice} ${option.title}`).join(', ')
