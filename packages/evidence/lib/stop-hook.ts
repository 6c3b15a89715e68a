import path from 'node:path'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol'
import {FileReadError, parseJsonText, readJsonFile, renderPartial, stateFolder, updateJsonFile} from '@verification-tiers/runtime'
import type {JsonFileKind} from '@verification-tiers/runtime'
import type {CheckResult, VerificationStatus} from './status.js'

/** A criterion the agent still has to verify, for the “not run” message. */
export interface RemainingCriterion {
  id: string
  text: string
}

/** The row of the stop hook’s decision matrix that applied (status, failures, safety valve). */
export type StopCase = 'unchecked' | 'unchecked-valve' | 'missing' | 'missing-valve' | 'pass' | 'pass-manual' | 'failed' | 'failed-valve'

/** What the stop hook answers. */
export interface StopDecision {
  case: StopCase
  decision: 'block' | 'allow'
  /** For the agent: why it may not stop (on block). */
  reason: string | null
  /** For the person: manual criteria to review, or the safety valve’s warning (on allow). */
  systemMessage: string | null
}

/**
 * Decide a stop: no status or failures block until the
 * safety valve; all automated criteria passing allows, listing manual ones.
 * A project that cannot be read (`problem`) proves nothing either: it blocks,
 * naming the problem, until the safety valve.
 */
export function decideStop(input: {
  status: VerificationStatus | null
  blocks: number
  maxBlocks?: number
  remaining: readonly RemainingCriterion[]
  /** Why the status file could not be read, when it could not: that counts as no run. */
  broken?: string | null
  /** Why the project could not be read or checked (a file and its problem), when it could not: nothing is verified. */
  problem?: string | null
}): StopDecision {
  const max = input.maxBlocks ?? defaultMaxStopBlocks
  const valve = input.blocks >= max
  if (input.problem) {
    return valve
      ? {
          case: 'unchecked-valve',
          decision: 'allow',
          reason: null,
          systemMessage: `${valveHeading(input.blocks, max)}\nVerification could not be checked: ${input.problem}\nReview this work before accepting it.`
        }
      : {
          case: 'unchecked',
          decision: 'block',
          reason: `HOLD: Cannot stop - verification cannot be checked.\n${input.problem}\nFix this, then run tiers verify --all to verify all acceptance criteria before completing.`,
          systemMessage: null
        }
  }
  if (!input.status) {
    const data = {remaining: input.remaining, blocks: input.blocks, max, broken: input.broken ?? null}
    return valve
      ? {case: 'missing-valve', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-valve', {...data, missing: true, failures: []})}
      : {case: 'missing', decision: 'block', reason: renderPartial('stop-hook-missing', data), systemMessage: null}
  }
  const results = Object.values(input.status.slices).flatMap((run) => run.results)
  const failures = results.filter((result) => result.status === 'fail' || result.status === 'timeout').map(describeFailure)
  if (failures.length > 0) {
    const data = {failures, noun: failures.length === 1 ? 'criterion' : 'criteria', blocks: input.blocks, max}
    return valve
      ? {case: 'failed-valve', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-valve', {...data, missing: false, remaining: []})}
      : {case: 'failed', decision: 'block', reason: renderPartial('stop-hook-failed', data), systemMessage: null}
  }
  const manual = results.filter((result) => result.status === 'requires-human').map((result) => ({id: result.criterion_id, text: result.text}))
  if (manual.length > 0) return {case: 'pass-manual', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-manual', {manual})}
  return {case: 'pass', decision: 'allow', reason: null, systemMessage: null}
}

/** The first line of the safety valve’s warning, as `stop-hook-valve` renders it. */
function valveHeading(blocks: number, max: number): string {
  return `WARNING: Stop allowed by the safety valve after ${blocks} blocks (limit ${max}).`
}

function describeFailure(result: CheckResult): {id: string; details: string} {
  return {id: result.criterion_id, details: result.details}
}

/** The hook’s JSON answer: `{"decision": "block", "reason": …}`, or `{}` (with a `systemMessage` when there is one). */
export function stopHookOutput(decision: StopDecision): Record<string, string> {
  if (decision.decision === 'block') return {decision: 'block', reason: decision.reason ?? ''}
  return decision.systemMessage ? {systemMessage: decision.systemMessage} : {}
}

/** Blocks per agent session, so the safety valve counts across calls. */
interface StopHookCounts {
  version: 1
  /** By session id, without a prototype: a session `__proto__` counts like any other. */
  sessions: Record<string, {blocks: number; at: string}>
}

export function stopHookCountsPath(dir: string): string {
  return path.join(dir, stateFolder, 'stop-hook.json')
}

const countsKind: JsonFileKind<StopHookCounts> = {
  empty: () => ({version: 1, sessions: Object.create(null) as StopHookCounts['sessions']}),
  parse(file, text) {
    const value = parseJsonText(file, text)
    const counts = value as Partial<StopHookCounts> | null
    if (!counts || counts.version !== 1 || typeof counts.sessions !== 'object' || counts.sessions === null) {
      throw new FileReadError(file, 'Unexpected content, expected stop-hook counts with `version: 1` and `sessions`')
    }
    // `JSON.parse` makes `__proto__` an own key; copied onto a null prototype it stays one.
    return {...counts, sessions: Object.assign(Object.create(null) as StopHookCounts['sessions'], counts.sessions)} as StopHookCounts
  }
}

/** A session’s own count only, never one inherited from `Object.prototype`. */
function blocksOf(counts: StopHookCounts, session: string): number {
  return (Object.hasOwn(counts.sessions, session) ? counts.sessions[session]?.blocks : undefined) ?? 0
}

/** Blocks so far in a session. */
export async function readStopBlocks(dir: string, session: string): Promise<number> {
  const counts = await readJsonFile(stopHookCountsPath(dir), countsKind)
  return blocksOf(counts, session)
}

/**
 * Count a block, or start again after an allowed stop. A state folder that
 * cannot be written throws a `FileWriteError` naming it at once (see
 * `prepareOwnFolder`).
 */
export async function recordStopDecision(dir: string, session: string, decision: StopDecision, now = new Date()): Promise<number> {
  const file = stopHookCountsPath(dir)
  return updateJsonFile(file, countsKind, (counts) => {
    const blocks = decision.decision === 'block' ? blocksOf(counts, session) + 1 : 0
    counts.sessions[session] = {blocks, at: now.toISOString()}
    return blocks
  })
}
