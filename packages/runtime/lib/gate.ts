import {rejectionThreshold} from '@verification-tiers/protocol'
import type {EscalationData, RejectionHistoryEntry} from '@verification-tiers/protocol'
import {deriveDecision} from './history.js'
import {interpretResponse} from './response.js'
import type {CheckpointResponse} from './response.js'
import {findEscalationOption, findRejectionOption, routeRejection} from './routing.js'
import type {EscalationOption, HandoffContract, Route} from './routing.js'
import type {ResolvedSlice} from './slice.js'
import {readSliceState, updateSliceState} from './state.js'
import type {AnswerBy, AnswerChannel, AnswerEntry, AnswerOrigin, AnswerProvenance, SliceState} from './state.js'
import {GateError} from './gate-error.js'
import {approvedPins, findWeakenings, holdSlice} from './weakening.js'
import type {SlicePins, Weakening} from './weakening.js'

/** What the gate of one slice works with. */
export interface GateContext {
  /** Project folder holding the state (`.greenlight`). */
  dir: string
  slice: ResolvedSlice
  /** The slice’s contracts as written, for hand-offs. */
  contracts: readonly HandoffContract[]
  /** Hash of those contracts, kept with decisions. */
  contractsHash: string
  /** The slice as a person would approve it now, kept with an approval (see `slicePins`); absent: nothing is pinned. */
  pins?: SlicePins
  /** Rejections before the escalation (default 3). */
  threshold?: number
  /** Clock, for tests. */
  now?: () => Date
}

/** What recording a response led to. */
export type RespondResult =
  | {kind: 'approved'; response: CheckpointResponse; state: SliceState}
  /** The slice stands approved for its contracts as they are: nothing was recorded. */
  | {kind: 'already-approved'; response: CheckpointResponse; state: SliceState}
  | {kind: 'rejected'; response: CheckpointResponse; state: SliceState; escalate: boolean; threshold: number}

/** What withdrawing an answer led to: the answer as now logged (withdrawn), and the state put back. */
export interface WithdrawResult {
  answer: AnswerEntry
  state: SliceState
}

const timestamp = (context: GateContext) => (context.now ?? (() => new Date()))().toISOString()

/** What the runtime cannot know by itself: an answer is `relayed`, by no one named, unless the caller says otherwise. */
const unknownOrigin: AnswerOrigin = {by: null, channel: 'relayed'}

/** Who gave an answer and how, with the contracts it answered, as logged. */
const provenance = (context: GateContext, origin: AnswerOrigin): Required<AnswerProvenance> => ({
  by: origin.by,
  channel: origin.channel,
  fingerprint: context.contractsHash
})

/**
 * The rejections that open a slice’s escalation: the setting’s, or lower
 * where a rejection since the slice last restarted was recorded under a
 * lower one. Each rejection keeps the threshold it was recorded under, and
 * a committed rejection cannot change unseen (see `historyLoss`), so raising
 * the setting never puts off an escalation a person already reached.
 */
export function sliceThreshold(context: Pick<GateContext, 'threshold'>, state: Pick<SliceState, 'rejections' | 'rejectionCount'>): number {
  const setting = context.threshold ?? rejectionThreshold
  const since = state.rejectionCount > 0 ? state.rejections.slice(-state.rejectionCount) : []
  return since.reduce((lowest, entry) => Math.min(lowest, entry.threshold ?? setting), setting)
}

/** An approval or an escalation choice that does not come from the person at a terminal: never recorded (the history would not count it). */
function refuseRelayed(what: string, origin: AnswerOrigin): void {
  if (origin.channel !== 'terminal') throw new GateError(`Unexpected ${what} relayed, expected the person’s own answer at a terminal: nothing was recorded`)
}

/**
 * Record a reply to the checkpoint: an approval completes the slice, keeping
 * any mismatch a skip deferred; a rejection is counted and logged verbatim.
 * Whether the checkpoint could be approved (fresh passing evidence) is the
 * caller’s to check first; `origin` says who answered and how, kept with
 * the answer (default: `relayed`, by no one named, which an approval may
 * not be). An answer at a terminal is taken on a state whose stored
 * `decision` the history does not give: the answer gives it anew.
 */
export async function recordResponse(context: GateContext, text: string, origin: AnswerOrigin = unknownOrigin): Promise<RespondResult> {
  const response = interpretResponse(text)
  const id = context.slice.id
  // A bare no says which choice, not what is wrong: counting it would route nothing to the test writer.
  if (response.kind === 'needs-description') {
    const what = response.partial ? 'what is missing' : 'what is wrong'
    const example = response.partial ? `"partially: ${what}"` : `"${what}"`
    throw new GateError(
      `Unexpected reply ${JSON.stringify(text)} to slice ${id} without a description, expected ${what}: tiers respond ${id} ${example}; nothing was recorded`
    )
  }
  if (response.kind === 'approval') refuseRelayed(`approval of slice ${id}`, origin)
  const check = origin.channel === 'terminal' ? 'all-but-decision' : 'all'
  return updateSliceState(
    context.dir,
    id,
    (state): RespondResult => {
      const at = timestamp(context)
      const answer = {
        at,
        decisionBefore: state.decision,
        escalationsBefore: state.escalations.length,
        withdrawnAt: null,
        withdrawnRejection: null,
        ...provenance(context, origin)
      }
      if (response.kind === 'approval') {
        // A second approval of the same contracts adds nothing (answers never stack, so one `--undo` withdraws the one that stands), unless it confirms a lower bar.
        if (
          state.decision?.status === 'approved' &&
          state.decision.contractsHash === context.contractsHash &&
          weakeningsSinceApproval(context, state).length === 0
        ) {
          return {kind: 'already-approved', response, state}
        }
        state.answers.push({reply: text, outcome: 'approval', ...answer, ...(context.pins ? {pins: context.pins} : {})})
        state.decision = deriveDecision(state)
        return {kind: 'approved', response, state}
      }
      let threshold = sliceThreshold(context, state)
      if (state.rejectionCount >= threshold && !state.decision && !pairedSinceLastRejection(state)) {
        throw new GateError(`Unexpected rejection: slice ${id} waits for an escalation choice, expected \`tiers escalate ${id} <1|2|3>\` first`)
      }
      state.rejectionCount++
      state.rejections.push({
        feedback: response.feedback,
        partial: response.partial,
        at,
        classification: null,
        action: null,
        detail: null,
        routedAt: null,
        threshold
      })
      threshold = sliceThreshold(context, state)
      state.answers.push({reply: text, outcome: 'rejection', ...answer})
      state.decision = deriveDecision(state)
      return {kind: 'rejected', response, state, escalate: state.rejectionCount >= threshold, threshold}
    },
    {check}
  )
}

/**
 * Withdraw the latest answer of the slice that stands: an approval gives
 * back the decision it replaced; a rejection leaves the count and the log of
 * rejections (its entry, with any route, is kept with the answer) and gives
 * back the decision it cleared. The answer stays in the log, marked
 * withdrawn, with who withdrew it and how (`origin`). An escalation choice
 * logged after the answer built on it, so the answer can no longer be
 * withdrawn. A withdrawal is the person’s, at a terminal, as an approval
 * is: it takes back a rejection the escalation counts, or puts back the
 * decision one cleared; relayed (the default), it is refused and nothing
 * changes.
 */
export async function withdrawAnswer(context: GateContext, origin: AnswerOrigin = unknownOrigin): Promise<WithdrawResult> {
  const id = context.slice.id
  refuseRelayed(`withdrawal of slice ${id}’s latest answer`, origin)
  return updateSliceState(context.dir, id, (state): WithdrawResult => {
    const answer = state.answers.findLast((entry) => entry.withdrawnAt === null)
    if (!answer)
      throw new GateError(`Unexpected \`--undo\`: slice ${id} has no recorded answer to withdraw, expected one given with \`tiers respond ${id} <reply>\``)
    if (state.escalations.length > answer.escalationsBefore) {
      throw new GateError(
        `Unexpected \`--undo\`: an escalation choice of slice ${id} was recorded after its latest answer (${JSON.stringify(answer.reply)}), expected none: the answer can no longer be withdrawn`
      )
    }
    if (answer.outcome === 'rejection') {
      const entry = state.rejections.at(-1)
      // The log says which entry the answer made; one that differs was changed by hand: withdraw nothing.
      if (!entry || entry.at !== answer.at || entry.feedback !== answer.reply || state.rejectionCount === 0) {
        throw new GateError(
          `Unexpected \`--undo\`: the latest rejection of slice ${id} is not the one its latest answer recorded (${JSON.stringify(answer.reply)}), expected them to agree: nothing was withdrawn`
        )
      }
      state.rejections.pop()
      state.rejectionCount--
      answer.withdrawnRejection = entry
    }
    answer.withdrawnAt = timestamp(context)
    answer.withdrawnBy = origin.by
    answer.withdrawnChannel = origin.channel
    state.decision = deriveDecision(state)
    return {answer, state}
  })
}

/** Record the user’s choice for the latest rejection and give the route with its hand-off. */
export async function recordRoute(context: GateContext, choice: string, detail: string | null): Promise<{route: Route; state: SliceState}> {
  const option = findRejectionOption(choice)
  if (!option) throw new GateError(`Unexpected route choice \`${choice}\`, expected 1, 2 or 3`)
  if (option.choice === '3' && !detail) {
    throw new GateError('Unexpected route 3 without `--detail`, expected the user’s description of exactly what they expect')
  }
  return updateSliceState(context.dir, context.slice.id, (state) => {
    if (state.rejectionCount >= sliceThreshold(context, state) && !pairedSinceLastRejection(state)) {
      throw new GateError(
        `Unexpected route: slice ${context.slice.id} has ${state.rejectionCount} rejections, expected an escalation choice first (\`tiers escalate ${context.slice.id} <1|2|3>\`)`
      )
    }
    // Only the latest rejection waits for a route: older ones were routed or left behind by a restart.
    const pending = state.rejections.at(-1)
    if (!pending || pending.classification !== null || state.rejectionCount === 0) {
      throw new GateError(`Unexpected route: slice ${context.slice.id} has no rejection waiting for a route, expected one recorded with \`tiers respond\``)
    }
    pending.classification = option.classification
    pending.action = option.actionTaken
    pending.detail = detail
    pending.routedAt = timestamp(context)
    const route = routeRejection({option, slice: context.slice, feedback: pending.feedback, detail, contracts: context.contracts})
    return {route, state}
  })
}

/**
 * Record the escalation choice: re-scope restarts the count, pair goes on,
 * skip accepts the slice as auto with the mismatch kept (with that of any
 * earlier skip). `origin` says who chose and how, kept with the choice: the
 * person at a terminal (the default, `relayed` by no one named, is refused).
 */
export async function recordEscalation(
  context: GateContext,
  choice: string,
  origin: AnswerOrigin = unknownOrigin
): Promise<{option: EscalationOption; state: SliceState}> {
  const option = findEscalationOption(choice)
  if (!option) throw new GateError(`Unexpected escalation choice \`${choice}\`, expected 1, 2 or 3`)
  refuseRelayed(`escalation choice ${option.choice} for slice ${context.slice.id}`, origin)
  return updateSliceState(context.dir, context.slice.id, (state) => {
    const threshold = sliceThreshold(context, state)
    if (state.decision) {
      throw new GateError(`Unexpected escalation: slice ${context.slice.id} is already decided (${state.decision.status}), expected a new rejection first`)
    }
    if (state.rejectionCount < threshold) {
      throw new GateError(
        `Unexpected escalation: slice ${context.slice.id} has ${state.rejectionCount} of ${threshold} rejections, expected ${threshold} before escalating`
      )
    }
    const at = timestamp(context)
    state.escalations.push({choice: option.choice, decision: option.decision, at, rejectionCount: state.rejectionCount, ...provenance(context, origin)})
    if (option.decision === 'rescope') state.rejectionCount = 0
    // A skip accepts the slice as auto, deferring the open rejections; earlier skips’ stay deferred too.
    state.decision = deriveDecision(state)
    return {option, state}
  })
}

/** The escalation’s data: the rejections since the slice last restarted, with what was done about each. */
export function escalationData(slice: ResolvedSlice, state: SliceState): EscalationData {
  const recent = state.rejectionCount > 0 ? state.rejections.slice(-state.rejectionCount) : []
  return {
    sliceName: slice.name,
    rejections: recent.map((entry): RejectionHistoryEntry => ({feedback: entry.feedback, action: entry.action ?? 'not routed'}))
  }
}

/** Where a slice stands, for `status`. */
export interface SliceStatus {
  slice: string
  name: string
  tier: ResolvedSlice['tier']
  rejectionCount: number
  threshold: number
  decision: SliceState['decision']
  /** The decision was made on contracts that have changed since. */
  stale: boolean
  /** What lowered the bar since a person last approved the slice, unconfirmed: the slice stays `verify` until a person approves it as it is. */
  weakenings: Weakening[]
  /** What the slice waits for. */
  next: 'checkpoint' | 'route' | 'escalation' | 'done' | 'nothing'
  /** Its latest answer that stands: what was replied, when, by whom and how (`null`: none). */
  lastAnswer: ShownAnswer | null
}

export async function sliceStatus(context: GateContext): Promise<SliceStatus> {
  const state = await readSliceState(context.dir, context.slice.id)
  const threshold = sliceThreshold(context, state)
  const stale = state.decision !== null && state.decision.contractsHash !== context.contractsHash
  const weakenings = weakeningsSinceApproval(context, state)
  // Until a person confirms a lower bar, the slice keeps the one they approved.
  const slice = holdSlice(context.slice, weakenings)
  const last = state.rejections.at(-1)
  let next: SliceStatus['next']
  if (state.decision && !stale && weakenings.length === 0) next = 'done'
  else if (slice.tier === 'auto') next = 'nothing'
  // A decision, even stale, waits for a new rejection before any escalation (see `recordEscalation`).
  else if (state.rejectionCount >= threshold && !state.decision && !pairedSinceLastRejection(state)) next = 'escalation'
  else if (last && last.classification === null && state.rejectionCount > 0 && !state.decision) next = 'route'
  else next = 'checkpoint'
  return {
    slice: context.slice.id,
    name: context.slice.name,
    tier: slice.tier,
    rejectionCount: state.rejectionCount,
    threshold,
    decision: state.decision,
    stale,
    weakenings,
    next,
    lastAnswer: shownAnswer(state.answers.findLast((entry) => entry.withdrawnAt === null))
  }
}

/** An answer as `status` shows it: who, how and on what are `null` for one logged before they were kept. */
export interface ShownAnswer {
  reply: string
  outcome: AnswerEntry['outcome']
  at: string
  by: AnswerBy | null
  channel: AnswerChannel | null
  fingerprint: string | null
}

function shownAnswer(answer: AnswerEntry | undefined): ShownAnswer | null {
  if (!answer) return null
  return {
    reply: answer.reply,
    outcome: answer.outcome,
    at: answer.at,
    by: answer.by ?? null,
    channel: answer.channel ?? null,
    fingerprint: answer.fingerprint ?? null
  }
}

/**
 * What lowered the bar of the slice (`context.pins`, as it is) since the
 * latest approval that stands pinned it; none when either is unknown.
 */
export function weakeningsSinceApproval(context: Pick<GateContext, 'pins' | 'slice'>, state: Pick<SliceState, 'answers' | 'escalations'>): Weakening[] {
  const pinned = approvedPins(state)
  if (!pinned || !context.pins) return []
  return findWeakenings(pinned, context.pins, sliceSubject(context.slice))
}

/** A slice as a weakening names it: `slice S-01 Campaign Cards`, or `slice S-01` when its name is its id. */
export function sliceSubject(slice: Pick<ResolvedSlice, 'id' | 'name'>): string {
  return slice.name === slice.id ? `slice ${slice.id}` : `slice ${slice.id} ${slice.name}`
}

/** Pairing was chosen and nothing was rejected since: the slice goes back to its checkpoint. */
function pairedSinceLastRejection(state: SliceState): boolean {
  const last = state.escalations.at(-1)
  return last?.decision === 'pair' && last.rejectionCount === state.rejectionCount
}
