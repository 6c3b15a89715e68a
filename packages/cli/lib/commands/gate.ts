import type {Freshness, HistoryJudgement} from '@verification-tiers/evidence/gate'
import {findSlice, formatProblem, gateContext, loadProject, placeWeakenings, recordLine, UserError} from '@verification-tiers/project'
import type {PlacedWeakening, Project, ProjectSlice} from '@verification-tiers/project'
import {
  ConcurrentChangeError,
  escalationData,
  findEscalationOption,
  interpretResponse,
  mentionsApproval,
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
  nothingToCheckWarning,
  projectTestCommand,
  sliceStatus,
  tierReport,
  verifyCheckpointData,
  withdrawAnswer
} from '@verification-tiers/runtime'
import type {AnswerChannel} from '@verification-tiers/runtime'
import {exitCodes, quoteArgument} from '../errors.js'
import {gitIdentity, personOnly, presence} from '../person.js'
import {shellQuote} from '../shell.js'
import {renderStatusTable} from '../status-table.js'
import {dirOf, heading, holdSliceContext, installedCommand, loadSliceContext, warningsOf, whyAuto} from './shared.js'
import {progressWords, statusNotes, statusRows, withProgress} from './status-rows.js'
import type {ProgressState, SliceProgressStatus} from './status-rows.js'
import type {Command, CommandInput, CommandResult, HeldSliceContext, SliceContext} from './shared.js'

/** The evidence of runs, loaded by the commands that judge it (a checkpoint, an approval): a reply, a route or an escalation needs none. */
const evidence = () => import('@verification-tiers/evidence/gate')

export const checkpoint: Command = async (input) =>
  showCheckpoint(await holdSliceContext(await loadSliceContext(input, 'tiers checkpoint <slice>', 1), input.base ?? null))

/** The slice’s checkpoint, with what changed since a person approved it, or why it cannot be shown (exit 1), or that the slice is auto. */
async function showCheckpoint({project, context, warnings: projectWarnings, weakenings, since}: HeldSliceContext): Promise<CommandResult> {
  const {openTaskLines, projectProblems, sliceFreshness, sliceHistoryHolds} = await evidence()
  const {slice} = context
  // A verify contract that shows nothing in the checkpoint is said, not left out in silence.
  const warnings = [...slice.nothingToCheck.map(nothingToCheckWarning), ...projectWarnings]
  // What the gate could not read or match may hide a contract of this slice (a verify one in an auto-looking slice): no “ALL TESTS PASSING” and no “auto” over it.
  // Nor over a slice whose state lost committed answers: its rejections decide whether it is shown again or escalated.
  const problems = [...projectProblems(project), ...(await sliceHistoryHolds(project, slice.id))]
  if (problems.length > 0) {
    const text = `VERIFICATION UNCHECKED — Slice ${slice.id}: ${slice.name}\n\nThe gate could not read or match part of the project:\n${problems.map((line) => `  ${line}`).join('\n')}\n\nFix these, then run \`tiers verify ${slice.id}\` and \`tiers checkpoint ${slice.id}\` again.`
    return {text, data: {slice: slice.id, name: slice.name, tier: slice.tier, problems, checkpoint: null}, warnings, exitCode: exitCodes.user}
  }
  // An open task says the work is not done, whatever the runs say; ticked ones prove nothing on their own.
  const openTasks = openTaskLines(findSlice(project, slice.id))
  if (openTasks.length > 0) {
    const text = `TASKS OPEN — Slice ${slice.id}: ${slice.name}\n\nA slice with open tasks is not ready for its checkpoint. Open in its tasks:\n${openTasks.map((line) => `  ${line}`).join('\n')}\n\nFinish them (or remove the ones no longer planned), then run \`tiers verify ${slice.id}\` and \`tiers checkpoint ${slice.id}\` again.`
    return {text, data: {slice: slice.id, name: slice.name, tier: slice.tier, openTasks, checkpoint: null}, warnings, exitCode: exitCodes.user}
  }
  if (slice.tier === 'auto') {
    return {
      text: `Slice ${slice.id}: ${slice.name} is auto: ${whyAuto(slice)}, so no checkpoint is needed.`,
      data: {slice: slice.id, name: slice.name, tier: slice.tier, retired: slice.retired, checkpoint: null},
      warnings
    }
  }
  const freshness = await sliceFreshness(project, context)
  if (freshness.state !== 'fresh') {
    const text = renderEvidenceRefusal(slice, freshness)
    return {
      text,
      data: {slice: slice.id, name: slice.name, tier: slice.tier, evidence: describeFreshness(freshness), checkpoint: null},
      warnings,
      exitCode: exitCodes.user
    }
  }
  // No test command ran: the headline says so rather than claim passing tests.
  // What lowered the bar since a person approved the slice is shown, old and new: approving confirms it.
  const changed = weakenings.map((weakening) => weakening.line)
  // What the workflow recorded of a person's answers is shown beside the checks: the agent's transcript, never this answer.
  const records = shownRecords(findSlice(project, slice.id))
  const text = renderVerifyCheckpoint({
    ...verifyCheckpointData(slice),
    noTestCommand: projectTestCommand(project.config) === null,
    changed,
    changedSince: since,
    records: records.map((record) => record.text)
  })
  return {
    text,
    data: {
      slice: slice.id,
      name: slice.name,
      tier: slice.tier,
      evidence: describeFreshness(freshness),
      humanCheck: slice.humanCheck,
      verification: slice.verification,
      criteria: slice.criteria,
      steps: slice.steps,
      changed: weakenings,
      records,
      checkpoint: text
    },
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
  if (input.undo) return undoAnswer(input)
  const loaded = await loadSliceContext(input, 'tiers respond <slice> <text…>', 2)
  const text = input.positionals.slice(1).join(' ')
  const id = loaded.context.slice.id
  const from = presence(process.env, input.stdinTerminal ?? false)
  // An approval is the person’s alone; a rejection may be relayed (an orchestrator passing on the person’s words).
  if (interpretResponse(text).kind === 'approval' && from.kind !== 'person') {
    const tiers = installedCommand()
    throw new UserError(personOnly(`approval of slice ${id}`, from, [`${tiers} review ${id}`, `${tiers} respond ${id} ${shellQuote(text)}`]))
  }
  // The person’s answer gives the decision anew, even over one its history does not give.
  const check = from.kind === 'person' ? 'all-but-decision' : 'all'
  return recordReply(await holdSliceContext(loaded, input.base ?? null, {check}), text, from.kind === 'person' ? 'terminal' : 'relayed')
}

/**
 * Record `text` as the reply to the slice’s checkpoint, given at a terminal
 * or relayed (whoever may give it is the caller’s to check), and say what
 * it led to: `respond`’s and `review`’s outputs.
 */
async function recordReply({project, context, warnings, weakenings, since}: HeldSliceContext, text: string, channel: AnswerChannel): Promise<CommandResult> {
  const {slice} = context
  if (interpretResponse(text).kind === 'approval') await (await evidence()).checkApprovable(project, context)
  let result
  try {
    result = await recordResponse(context, text, {by: await gitIdentity(project.dir), channel})
  } catch (error) {
    // The reply must not be lost: it is given back, ready to send again.
    if (!(error instanceof ConcurrentChangeError)) throw error
    throw new UserError(
      `Unexpected change to slice ${slice.id} by another \`tiers\` while this reply was recorded, expected none: nothing was recorded; send it again: tiers respond ${slice.id} ${shellQuote(text)}`
    )
  }
  const base = {slice: slice.id, name: slice.name, rejectionCount: result.state.rejectionCount}
  const undo = `To withdraw this answer: tiers respond --undo ${slice.id}`
  if (result.kind === 'approved') {
    const mismatch = result.state.decision?.mismatch ?? []
    const kept = mismatch.length > 0 ? `\nThe mismatch acknowledged when verification was skipped stays recorded:\n${listFeedback(mismatch)}` : ''
    const confirmed =
      weakenings.length > 0 ? `\nConfirmed, as changed since ${since}:\n${weakenings.map((weakening) => `  - ${weakening.line}`).join('\n')}` : ''
    return {
      text: `${heading('APPROVED', slice)}\n\nRecorded. The slice is complete: go on to summary and docs.${kept}${confirmed}\n${undo}`,
      data: {...base, outcome: 'approved', decision: result.state.decision, answer: result.state.answers.at(-1), confirmed: weakenings},
      warnings
    }
  }
  if (result.kind === 'already-approved') {
    const at = result.state.decision?.at ?? ''
    return {
      text: `${heading('ALREADY APPROVED', slice)}\n\nThe slice was approved at ${at} for its contracts as they are: nothing was recorded.`,
      data: {...base, outcome: 'already-approved', decision: result.state.decision},
      warnings
    }
  }
  const answer = result.state.answers.at(-1)
  // Said before the count, so a reply meant as an approval is caught at once; a plain rejection needs no such advice.
  const readAs = mentionsApproval(text)
    ? `Recorded as feedback, not an approval: ${JSON.stringify(text)}\nIf it was meant as an approval: tiers respond --undo ${slice.id}, then tiers respond ${slice.id} yes`
    : `Recorded as feedback: ${JSON.stringify(text)}`
  if (result.escalate) {
    const escalation = renderEscalation(escalationData(slice, result.state))
    return {
      text: `${readAs}\n\n${escalation}\n\nRecord the choice: tiers escalate ${slice.id} <1|2|3>`,
      data: {...base, outcome: 'escalation', recordedAs: 'feedback', threshold: result.threshold, feedback: text, escalation, answer},
      warnings
    }
  }
  const options = renderRejectionOptions({feedback: text})
  return {
    text: `${readAs}\n\n${options}\n\nRejection ${result.state.rejectionCount} of ${result.threshold} recorded. Record the choice: tiers route ${slice.id} <1|2|3> [--detail <text>]`,
    data: {...base, outcome: 'rejected', recordedAs: 'feedback', threshold: result.threshold, feedback: text, options, answer},
    warnings
  }
}

/**
 * `tiers review [slice]`: the person at a terminal sees the checkpoint (as
 * `checkpoint` prints it, refused as it is) and types the answer, recorded as
 * `respond` records it. Without a slice, the first that waits for its
 * checkpoint.
 */
export const review: Command = async (input) => {
  const tiers = installedCommand()
  const [id] = input.positionals
  const from = presence(process.env, input.stdinTerminal ?? false)
  const check = from.kind === 'person' ? 'all-but-decision' : 'all'
  const loaded = await holdSliceContext(
    id === undefined ? await firstWaiting(input) : await loadSliceContext(input, 'tiers review [slice]', 1),
    input.base ?? null,
    {check}
  )
  const {slice} = loaded.context
  if (from.kind !== 'person' || !input.ask)
    throw new UserError(personOnly(`review of slice ${slice.id}`, from.kind === 'person' ? {kind: 'no-terminal'} : from, [`${tiers} review ${slice.id}`]))
  const shown = await showCheckpoint(loaded)
  // No checkpoint to answer (the gate is closed, or the slice is auto): what `checkpoint` says, and nothing asked.
  if ((shown.exitCode ?? exitCodes.ok) !== exitCodes.ok || typeof shown.data.checkpoint !== 'string') return shown
  const reply = await input.ask(`${shown.text}\n\nYour answer (yes, or what is wrong): `)
  if (reply === null)
    throw new UserError(
      `Unexpected end of input before an answer to slice ${slice.id}, expected the person’s answer typed at the terminal: nothing was recorded`
    )
  const result = await recordReply(loaded, reply, 'terminal')
  return {...result, warnings: [...new Set([...shown.warnings, ...result.warnings])]}
}

/**
 * The first slice whose checkpoint waits for the person, as `tiers status`
 * says it (`next: checkpoint`: a passing run, no decision); none is a
 * one-line error listing where each stands.
 */
async function firstWaiting(input: CommandInput): Promise<SliceContext> {
  const project = await loadProject(await dirOf(input))
  const progress = await progressOf(project)
  const statuses: SliceProgressStatus[] = []
  for (const slice of project.slices.filter((each) => each.missing.length === 0)) {
    const context = gateContext(project, slice)
    const status = withProgress(await sliceStatus(context), progress.get(slice.id) ?? null)
    if (status.next === 'checkpoint') return {project, context, warnings: warningsOf(project)}
    statuses.push(status)
  }
  const waits = {
    nothing: 'auto',
    done: 'done',
    verify: 'waits for a passing run',
    route: 'waits for a route',
    escalation: 'waits for an escalation choice',
    checkpoint: ''
  } as const
  const where = statuses.length === 0 ? 'the project has none' : statuses.map((status) => `${status.slice} ${waits[status.next]}`).join(', ')
  throw new UserError(`Unexpected \`tiers review\` without a slice while none waits for its checkpoint (${where}), expected a slice: \`tiers review <slice>\``)
}

/** Where each slice of the project stands, by the judgement the stop hook holds on (`judgeProgress`), by slice id. */
async function progressOf(project: Project, history?: HistoryJudgement): Promise<{get: (id: string) => ProgressState | undefined; unreadRuns: string | null}> {
  const judged = await (await evidence()).judgeProgress(project, history)
  const states = new Map(judged.slices.map(({judgement}) => [judgement.id, judgement.state]))
  return {get: (id) => states.get(id), unreadRuns: judged.broken}
}

/** `tiers respond --undo <slice>`: the latest answer withdrawn, and where the slice stands now. */
const undoAnswer: Command = async (input) => {
  if (input.positionals.length !== 1) throw new UserError('Unexpected arguments, expected `tiers respond --undo <slice>` (no reply)')
  const {project, context, warnings} = await loadSliceContext(input, 'tiers respond --undo <slice>', 1)
  const {slice} = context
  const from = presence(process.env, input.stdinTerminal ?? false)
  // A withdrawal takes back a rejection the escalation counts, or puts back the decision one cleared: the person’s to do, as an approval is.
  if (from.kind !== 'person')
    throw new UserError(personOnly(`withdrawal of slice ${slice.id}’s latest answer`, from, [`${installedCommand()} respond --undo ${slice.id}`]))
  const {answer, state} = await withdrawAnswer(context, {by: await gitIdentity(project.dir), channel: 'terminal'})
  const what = answer.outcome === 'approval' ? 'approval' : 'rejection'
  const routed = answer.withdrawnRejection?.classification ? ` Its route (${answer.withdrawnRejection.classification}) is withdrawn with it.` : ''
  const decision = state.decision ? `${state.decision.status} ${state.decision.at}` : 'undecided'
  return {
    text: `${heading('WITHDRAWN', slice)}\n\nWithdrawn: the ${what} ${JSON.stringify(answer.reply)} recorded ${answer.at}; it stays in the history, marked withdrawn.${routed}\nNow: ${state.rejectionCount} rejection${state.rejectionCount === 1 ? '' : 's'}, ${decision}.`,
    data: {slice: slice.id, name: slice.name, outcome: 'withdrawn', withdrawn: answer, rejectionCount: state.rejectionCount, decision: state.decision},
    warnings
  }
}

export const route: Command = async (input) => {
  const {context, warnings} = await loadSliceContext(input, 'tiers route <slice> <1|2|3> [--detail <text>]', 2)
  const {route: routed, state} = await recordRoute(context, input.positionals[1], input.detail)
  return {text: renderRoute(routed), data: {...routed, rejectionCount: state.rejectionCount}, warnings}
}

export const escalate: Command = async (input) => {
  const {project, context, warnings} = await loadSliceContext(input, 'tiers escalate <slice> <1|2|3>', 2)
  const choice = input.positionals[1]
  const {slice} = context
  const from = presence(process.env, input.stdinTerminal ?? false)
  // A bad choice is said as ever; a good one is the person’s to make (3 accepts the slice without its checkpoint).
  if (findEscalationOption(choice) && from.kind !== 'person') {
    throw new UserError(
      personOnly(`escalation choice ${quoteArgument(choice)} for slice ${slice.id}`, from, [`${installedCommand()} escalate ${slice.id} ${shellQuote(choice)}`])
    )
  }
  const {option, state} = await recordEscalation(context, choice, {by: await gitIdentity(project.dir), channel: 'terminal'})
  let next: string
  if (option.decision === 'rescope') next = 'Recorded. Revise the contracts with the user and restart the slice; its rejection count starts again at 0.'
  else if (option.decision === 'pair')
    next =
      'Recorded. Collect the user’s step-by-step guidance, route it with `tiers route ' +
      slice.id +
      ' 3 --detail <text>`, then present the checkpoint when it is ready.'
  else {
    const mismatch = state.decision?.mismatch ?? []
    next = `Recorded. The slice is accepted as auto with the mismatch acknowledged but deferred:\n${listFeedback(mismatch)}`
  }
  return {
    text: `${heading(option.title.toUpperCase(), slice)}\n\n${next}`,
    data: {slice: slice.id, name: slice.name, choice: option.choice, decision: option.decision, rejectionCount: state.rejectionCount, state: state.decision},
    warnings
  }
}

export const status: Command = async (input) => {
  const project = await loadProject(await dirOf(input))
  const [id] = input.positionals
  const slices = id ? [findSlice(project, id)] : project.slices.filter((slice) => slice.missing.length === 0)
  const history = await (await evidence()).judgeHistory(project)
  // Where each slice stands, as the stop hook judges it: both say the same slices are in progress.
  const progress = await progressOf(project, history)
  const statuses: ShownStatus[] = []
  for (const slice of slices) {
    const context = gateContext(project, slice)
    const {humanCheck, retired, criteria, steps} = context.slice
    const status = await sliceStatus(context)
    statuses.push({
      ...withProgress(status, progress.get(slice.id) ?? null),
      // Each change that lowered what a person approved, with where it is now.
      weakenings: placeWeakenings(slice, status.weakenings),
      statedTier: slice.tier,
      nothingToCheck: context.slice.nothingToCheck,
      contracts: slice.contracts.length,
      criteria: criteria.length,
      steps: steps.length,
      openTasks: slice.openTasks.length,
      optionalTasks: slice.optionalTasks.length,
      humanCheck,
      retired,
      records: shownRecords(slice)
    })
  }
  const broken = id ? [] : project.slices.filter((slice) => slice.missing.length > 0)
  // A slice’s own lost history, or none compared at all; state files of no slice when every slice is shown.
  const lost = history.holds.filter((hold) => !id || hold.slice === id || hold.slice === null).map((hold) => hold.line)
  const orphans = id ? [] : history.orphans
  // At a terminal, a table a person reads; piped, the same line per slice as ever, for scripts.
  const lines = input.terminal
    ? [renderStatusTable(await statusRows(project.dir, statuses), {width: input.terminal.columns, now: new Date()})]
    : statuses.map(describeStatus)
  if (input.terminal && (broken.length + project.problems.length + lost.length + orphans.length > 0 || progress.unreadRuns !== null)) lines.push('')
  for (const slice of broken) lines.push(`${slice.id} ${slice.name}: ${project.slicesFrom} lists ${slice.missing.join(', ')}, which no contract file defines`)
  // What could not be read or matched is said here too: it holds the gate, as lost history does.
  for (const problem of project.problems) lines.push(`problem: ${formatProblem(problem)}`)
  for (const line of lost) lines.push(`problem: ${line}`)
  for (const line of orphans) lines.push(`note: ${line}`)
  if (progress.unreadRuns !== null) lines.push(`problem: ${progress.unreadRuns}; every slice counts as never verified`)
  // An empty answer would read as a failure to read: say that the project holds no slice.
  if (lines.length === 0) lines.push(`note: ${project.dir} holds no slice: nothing waits for a check or a person`)
  return {
    text: lines.join('\n'),
    data: {
      slices: statuses,
      broken: broken.map((slice) => ({slice: slice.id, missing: slice.missing})),
      problems: project.problems,
      lostHistory: lost,
      orphans,
      unreadRuns: progress.unreadRuns
    },
    warnings: warningsOf(project)
  }
}

export const report: Command = async (input) => {
  // The report lists the deprecation among its own warnings.
  const {project, context} = await loadSliceContext(input, 'tiers report <slice>', 1)
  const data = tierReport(context.slice, project.config)
  const state = await readSliceState(project.dir, context.slice.id)
  return {text: renderTierReport(data), data: {...data, rejectionCount: state.rejectionCount}, warnings: []}
}

/** A slice in `tiers status`: where it stands, with what its checkpoint would show. */
type ShownStatus = SliceProgressStatus & {
  weakenings: PlacedWeakening[]
  /** The tier the graph states for the slice, `null` when it states none. */
  statedTier: string | null
  nothingToCheck: string[]
  /** Contracts the slice has (`0`: the graph lists none, or names none that exist). */
  contracts: number
  /** Criteria and steps of its verify contracts. */
  criteria: number
  steps: number
  /** Unticked tasks of its `tasks.md`: while any is open, its checkpoint is refused. */
  openTasks: number
  /** Unticked optional tasks (`- [ ]*`) that do not hold it. */
  optionalTasks: number
  humanCheck: string | null
  retired: string | null
  /** What the tool's workflow recorded of a person's answers, each as the line shown: never an answer to the gate. */
  records: ShownRecord[]
}

/** A record of the workflow's, where it is and as its line shows it. */
interface ShownRecord {
  file: string
  line: number | null
  text: string
}

/** The records of a slice (GSD's UAT files), as status and the checkpoint show them. */
function shownRecords(slice: ProjectSlice): ShownRecord[] {
  return (slice.records ?? []).map((record) => ({file: record.file, line: record.line, text: recordLine(record)}))
}

function describeStatus(status: ShownStatus): string {
  let decision = 'undecided'
  if (status.decision) {
    decision = `${status.decision.status} ${status.decision.at}${status.stale ? ' (stale: contracts changed since)' : ''}`
  }
  const notes = statusNotes(status).map((note) => `; ${note}`)
  const run = progressWords(status.progress)
  return `${status.slice} ${status.name}: ${status.tier}, ${status.rejectionCount}/${status.threshold} rejections, ${decision}${run === null ? '' : `, ${run}`}, next: ${status.next}${notes.join('')}`
}

/** Feedback as a list: `  - "…"` a line. */
function listFeedback(feedback: readonly string[]): string {
  return feedback.map((entry) => `  - "${entry}"`).join('\n')
}
