/**
 * A slice’s decision follows from its history: the answers that stand and
 * the escalation choices, replayed in the order they were given. The
 * `decision` a state file stores (and each answer’s `decisionBefore`) is
 * kept for whoever reads the JSON, and must agree with that replay: one
 * that does not is a claim nothing in the history backs.
 */
import {isDeepStrictEqual} from 'node:util'
import {keptMismatch} from './mismatch.js'
import type {AnswerEntry, AnswerProvenance, EscalationEntry, RejectionEntry, SliceDecision, SliceState} from './state.js'

/** A decision as an answer or a skip gives it; its mismatch comes from the whole log (`keptMismatch`). */
type Given = Pick<SliceDecision, 'status' | 'at' | 'contractsHash'>

/** Where the replay stands: the decision so far, and the entry that last changed it (`null`: none did). */
interface Standing {
  decision: Given | null
  from: DecisionSource | null
}

/** An entry of the history that gives (or clears) the decision. */
export type DecisionSource = {list: 'answers'; index: number; entry: AnswerEntry} | {list: 'escalations'; index: number; entry: EscalationEntry}

/**
 * Whether an answer or an escalation choice was given by the person at a
 * terminal, on contracts it names: only such an approval or skip decides.
 * `tiers` never records an approval or a choice otherwise; a file written
 * before `channel` and `fingerprint` were kept has neither.
 */
export function givenByPerson(entry: AnswerProvenance): boolean {
  return entry.channel === 'terminal' && typeof entry.fingerprint === 'string'
}

/**
 * Replay the history: each escalation choice in its place among the answers
 * (an answer logs how many were before it), withdrawn answers left out. An
 * approval by the person decides for the contracts it answered, a rejection
 * clears the decision, a skip by the person accepts the slice as auto.
 * `visit` sees each answer that stands with the decision before it.
 */
function replay(state: Pick<SliceState, 'answers' | 'escalations'>, visit?: (index: number, before: Standing) => void): Standing {
  let standing: Standing = {decision: null, from: null}
  let next = 0
  const escalateUntil = (until: number) => {
    for (; next < Math.min(until, state.escalations.length); next++) {
      const entry = state.escalations[next]
      if (entry.decision === 'skip' && givenByPerson(entry)) {
        standing = {decision: {status: 'accepted-as-auto', at: entry.at, contractsHash: entry.fingerprint!}, from: {list: 'escalations', index: next, entry}}
      }
    }
  }
  for (const [index, answer] of state.answers.entries()) {
    escalateUntil(answer.escalationsBefore)
    if (answer.withdrawnAt !== null) continue
    visit?.(index, standing)
    const from = {list: 'answers', index, entry: answer} as const
    if (answer.outcome === 'rejection') standing = {decision: null, from}
    else if (givenByPerson(answer)) standing = {decision: {status: 'approved', at: answer.at, contractsHash: answer.fingerprint!}, from}
  }
  escalateUntil(Number.POSITIVE_INFINITY)
  return standing
}

/**
 * The decision the history gives, with the mismatch every decision keeps
 * (`keptMismatch`, which reads the stored decision’s for feedback the log
 * does not explain): what every reader of a slice’s state goes by.
 */
export function deriveDecision(state: SliceState): SliceDecision | null {
  const {decision} = replay(state)
  return decision && {...decision, mismatch: keptMismatch(state)}
}

/** The answer or the skip behind the decision the history gives; `null` when it gives none. */
export function decisionSource(state: Pick<SliceState, 'answers' | 'escalations'>): DecisionSource | null {
  const standing = replay(state)
  return standing.decision ? standing.from : null
}

/** What is wrong with a state’s history: the path of the value it is about, why, and the way out. */
export interface HistoryProblem {
  path: Array<string | number>
  reason: string
  hint: string
}

/** What of a history is checked: all of it, or all but the stored `decision` (which an answer at a terminal is about to give anew). */
export type HistoryCheck = 'all' | 'all-but-decision'

/**
 * The first place where the stored history contradicts itself: an answer
 * logging escalation choices out of order, an answer’s `decisionBefore`, or
 * the stored `decision`, that is not what the answers and choices before
 * give. `answersKept` is false for a file written before answers were
 * logged, which the message says.
 */
export function historyProblem(
  state: SliceState,
  {check = 'all', answersKept = true}: {check?: HistoryCheck; answersKept?: boolean} = {}
): HistoryProblem | null {
  const hint = `the person answers its checkpoint again (\`tiers review ${state.slice}\`), or fix the file (it is never reset silently)`
  const fixHint = 'fix the file (it is never reset silently)'
  let earliest = 0
  for (const [index, answer] of state.answers.entries()) {
    const logged = answer.escalationsBefore
    if (logged < earliest || logged > state.escalations.length) {
      const reason = `Unexpected \`answers[${index}].escalationsBefore\` ${logged}, expected ${earliest === state.escalations.length ? earliest : `${earliest} to ${state.escalations.length}`}: the escalation choices logged before it, in order`
      return {path: ['answers', index, 'escalationsBefore'], reason, hint: fixHint}
    }
    earliest = logged
  }
  let before: HistoryProblem | null = null
  const standing = replay(state, (index, {decision}) => {
    const stored = state.answers[index].decisionBefore
    if (before || sameDecision(stored, decision)) return
    const reason = `Unexpected \`answers[${index}].decisionBefore\` ${shownDecision(stored)}, expected ${shownDecision(decision)}: the decision the answers and escalation choices before it give`
    before = {path: ['answers', index, 'decisionBefore'], reason, hint: fixHint}
  })
  if (before) return before
  if (check === 'all-but-decision' || sameDecision(state.decision, standing.decision)) return null
  return {
    path: ['decision'],
    reason: `Unexpected \`decision\` ${shownDecision(state.decision)}${unbacked(state, answersKept)}, expected ${shownDecision(standing.decision)}${givenBy(standing)}`,
    hint
  }
}

/** Why a stored decision has nothing behind it, when nothing has: ` with no approval by a person behind it in \`answers\``. */
function unbacked(state: SliceState, answersKept: boolean): string {
  const stored = state.decision
  if (stored === null) return ''
  const approval = stored.status === 'approved'
  const entries: Array<[number, AnswerEntry | EscalationEntry]> = approval
    ? [...state.answers.entries()].filter(([, entry]) => entry.outcome === 'approval' && entry.withdrawnAt === null)
    : [...state.escalations.entries()].filter(([, entry]) => entry.decision === 'skip')
  const list = approval ? 'answers' : 'escalations'
  const behind = entries.filter(([, entry]) => entry.at === stored.at)
  // One given by the person at that time: what differs (its contracts) is in the expected decision.
  if (behind.some(([, entry]) => givenByPerson(entry))) return ''
  const what = approval ? 'an approval' : 'a skip (escalation choice 3)'
  const noAnswers = approval && !answersKept ? ' (the file has no `answers`: it was written before they were kept)' : ''
  const [index, entry] = behind[0] ?? []
  let claimed = ''
  if (entry && index !== undefined) {
    claimed =
      entry.channel === 'relayed'
        ? ` (\`${list}[${index}]\` was relayed, and ${what} is only ever the person’s, at a terminal)`
        : ` (\`${list}[${index}]\` does not say it was given at a terminal, on which contracts)`
  }
  return ` with no ${what.replace(/^an? /, '')} by a person behind it in \`${list}\`${noAnswers}${claimed}`
}

/** What gave the decision the history gives, for a message: ` as the rejection \`answers[3]\` leaves it`. */
function givenBy({decision, from}: Standing): string {
  if (!from) return ''
  if (!decision) return `, as the rejection \`answers[${from.index}]\` leaves it`
  return `, as \`${from.list}[${from.index}]\` gives it`
}

/** Two decisions are the same when their status, time and contracts are: the mismatch is the log’s (see `keptMismatch`). */
function sameDecision(a: Given | null, b: Given | null): boolean {
  if (a === null || b === null) return a === b
  return a.status === b.status && a.at === b.at && a.contractsHash === b.contractsHash
}

/** `approved 2025-01-01T00:00:00.000Z for sha256:0123456789ab…`, or `null`. */
export function shownDecision(decision: Given | null): string {
  if (!decision) return 'null'
  const hash = decision.contractsHash.length > 19 ? `${decision.contractsHash.slice(0, 19)}…` : decision.contractsHash
  return `${decision.status} ${decision.at} for ${hash}`
}

/** What a state file lost, or changed, of the history committed before it: counts by kind of entry. */
export interface HistoryLoss {
  lost: EntryCounts
  changed: EntryCounts
}

export interface EntryCounts {
  answers: number
  rejections: number
  escalations: number
}

/**
 * What `now` lost of the history `committed` holds: every committed answer,
 * rejection and escalation choice must still be there, in its place and as
 * it was. What a later command legitimately changes is allowed: a rejection
 * routed, an answer withdrawn by the person at a terminal (`tiers respond
 * --undo`, which moves its rejection into the answer’s `withdrawnRejection`
 * and records `withdrawnChannel` `terminal`); a withdrawal that does not say
 * so changes the answer, and loses its rejection. An entry gone is lost;
 * one still there elsewhere or altered is changed. `null` when nothing is.
 */
export function historyLoss(committed: SliceState, now: SliceState): HistoryLoss | null {
  const lost: EntryCounts = {answers: 0, rejections: 0, escalations: 0}
  const changed: EntryCounts = {answers: 0, rejections: 0, escalations: 0}
  const tally = (kind: keyof EntryCounts, found: boolean) => (found ? changed[kind]++ : lost[kind]++)
  for (const [index, entry] of committed.escalations.entries()) {
    if (isDeepStrictEqual(now.escalations[index], entry)) continue
    tally(
      'escalations',
      now.escalations.some((other) => other.at === entry.at)
    )
  }
  for (const [index, entry] of committed.answers.entries()) {
    if (sameAnswer(entry, now.answers[index])) continue
    tally(
      'answers',
      now.answers.some((other) => other.at === entry.at && other.reply === entry.reply)
    )
  }
  // Withdrawn since: the rejection a withdrawal took out of the log, kept with its answer.
  const withdrawn = now.answers.flatMap((answer, index) =>
    committed.answers[index]?.withdrawnAt === null && answer.withdrawnRejection && byPerson(answer) ? [answer.withdrawnRejection] : []
  )
  for (const [index, entry] of committed.rejections.entries()) {
    if (sameRejection(entry, now.rejections[index]) || withdrawn.some((other) => sameRejection(entry, other))) continue
    tally(
      'rejections',
      now.rejections.some((other) => other.at === entry.at && other.feedback === entry.feedback)
    )
  }
  const any = (counts: EntryCounts) => counts.answers + counts.rejections + counts.escalations > 0
  return any(lost) || any(changed) ? {lost, changed} : null
}

/** The answer as committed, or withdrawn since by the person (a standing answer may be withdrawn, nothing else). */
function sameAnswer(committed: AnswerEntry, now: AnswerEntry | undefined): boolean {
  if (!now) return false
  if (committed.withdrawnAt !== null) return isDeepStrictEqual(committed, now)
  if (now.withdrawnAt !== null && !byPerson(now)) return false
  const {withdrawnBy: _by, withdrawnChannel: _channel, ...kept} = now
  return isDeepStrictEqual(committed, {...kept, withdrawnAt: null, withdrawnRejection: committed.withdrawnRejection})
}

/** Whether an answer was withdrawn at a terminal: the person’s withdrawal, the only one `tiers` takes. */
const byPerson = (answer: AnswerEntry) => answer.withdrawnChannel === 'terminal'

/** The rejection as committed, or routed since (an unrouted one may be routed, nothing else). */
function sameRejection(committed: RejectionEntry, now: RejectionEntry | undefined): boolean {
  if (!now) return false
  if (committed.classification !== null) return isDeepStrictEqual(committed, now)
  return isDeepStrictEqual(committed, {...now, classification: null, action: null, detail: null, routedAt: null})
}
