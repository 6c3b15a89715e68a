import path from 'node:path'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol'
import {FileReadError, parseJsonText, readJsonFile, renderPartial, stateFolder, updateJsonFile} from '@verification-tiers/runtime'
import type {JsonFileKind} from '@verification-tiers/runtime'

/** A criterion the agent still has to verify, for the “not run” message. */
export interface RemainingCriterion {
  id: string
  text: string
  /** A criterion of a verify contract without a command: a person confirms it at the checkpoint (`tiers verify` cannot). */
  forPerson: boolean
}

/**
 * Where one slice in progress stands: never verified, its latest run stale
 * (`run`: when it ran) or failed, or passed on the sources as they are now
 * (`manual`: its criteria for a person, when its checkpoint is not approved
 * yet). `name` is the slice’s, as its checkpoint names it.
 */
export type SliceJudgement =
  | {id: string; name: string; state: 'not-run'; remaining: RemainingCriterion[]}
  | {id: string; name: string; state: 'stale'; run: string; changed: string[]; remaining: RemainingCriterion[]}
  | {id: string; name: string; state: 'failed'; failures: Array<{id: string; details: string}>}
  | {id: string; name: string; state: 'passed'; manual: RemainingCriterion[]}

/** The row of the stop hook’s decision matrix that applied (problems, open tasks, slices, safety valve). */
export type StopCase =
  | 'unchecked'
  | 'unchecked-valve'
  | 'tasks-open'
  | 'tasks-open-valve'
  | 'missing'
  | 'missing-valve'
  | 'pass'
  | 'pass-manual'
  | 'failed'
  | 'failed-valve'

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
 * Decide a stop from the slices in progress: one never verified, stale or
 * failing blocks until the safety valve; all passing allows, listing the
 * criteria a person has to check. What the gate could not read or prove
 * (`problems`, one line each naming the file) blocks too, before anything
 * else, under the same valve.
 */
export function decideStop(input: {
  slices: readonly SliceJudgement[]
  blocks: number
  maxBlocks?: number
  /** Why the status file could not be read, when it could not: every slice counts as not run. */
  broken?: string | null
  /** What the gate could not read, match or prove, one line each (`file:line: message`). */
  problems?: readonly string[]
  /** The open tasks of the slices in progress, one line each (`file:line: text (open task of slice …)`). */
  openTasks?: readonly string[]
  /** Where the workflow’s own files call a slice in progress complete, one line each (`file:line calls S-01 complete; …`): said with the slices, never counted as evidence. */
  claims?: readonly string[]
  /** How the agent runs tiers where it is installed (`npx tiers` for a project's own install), for the commands the reason names. */
  command?: string
}): StopDecision {
  const max = input.maxBlocks ?? defaultMaxStopBlocks
  const command = input.command ?? 'tiers'
  const valve = input.blocks >= max
  const openTasks = input.openTasks ?? []
  // Open tasks beside what cannot be read are listed with it: the heading says the worse.
  const problems = (input.problems ?? []).length > 0 ? [...(input.problems ?? []), ...openTasks] : []
  if (problems.length === 0 && openTasks.length > 0) {
    const lines = openTasks.join('\n')
    return valve
      ? {
          case: 'tasks-open-valve',
          decision: 'allow',
          reason: null,
          systemMessage: `${valveHeading(input.blocks, max)}\nTasks still open: ${lines}\nReview this work before accepting it.`
        }
      : {
          case: 'tasks-open',
          decision: 'block',
          reason: `HOLD: Cannot stop - tasks open.\n${lines}\nFinish them (or remove the ones no longer planned), then run ${command} verify --all to verify all acceptance criteria before completing.`,
          systemMessage: null
        }
  }
  if (problems.length > 0) {
    const lines = problems.join('\n')
    return valve
      ? {
          case: 'unchecked-valve',
          decision: 'allow',
          reason: null,
          systemMessage: `${valveHeading(input.blocks, max)}\nVerification could not be checked: ${lines}\nReview this work before accepting it.`
        }
      : {
          case: 'unchecked',
          decision: 'block',
          reason: `HOLD: Cannot stop - verification cannot be checked.\n${lines}\nFix this, then run ${command} verify --all to verify all acceptance criteria before completing.`,
          systemMessage: null
        }
  }
  const unverified = input.slices.flatMap((slice) => (slice.state === 'not-run' || slice.state === 'stale' ? [unverifiedSlice(slice)] : []))
  // A contract in several slices gives its criteria once.
  const remaining = uniqueBy(
    input.slices.flatMap((slice) => (slice.state === 'not-run' || slice.state === 'stale' ? slice.remaining : [])),
    (criterion) => criterion.id
  )
  const failures = uniqueBy(
    input.slices.flatMap((slice) => (slice.state === 'failed' ? slice.failures : [])),
    (failure) => `${failure.id}\0${failure.details}`
  )
  const claims = firstFew(input.claims ?? [], (more) => `and ${more} more places in the workflow’s files call slices in progress complete`)
  if (failures.length > 0) {
    const data = {failures, unverified, remaining, claims, noun: failures.length === 1 ? 'criterion' : 'criteria', blocks: input.blocks, max, command}
    return valve
      ? {case: 'failed-valve', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-valve', data)}
      : {case: 'failed', decision: 'block', reason: renderPartial('stop-hook-failed', data), systemMessage: null}
  }
  if (unverified.length > 0) {
    const stale = unverified.filter((slice) => slice.why.startsWith('stale')).length
    const headline = stale === 0 ? 'not run' : stale === unverified.length ? 'stale' : 'not run or stale'
    const data = {headline, unverified, remaining, claims, failures: [], broken: input.broken ?? null, blocks: input.blocks, max, command}
    return valve
      ? {case: 'missing-valve', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-valve', data)}
      : {case: 'missing', decision: 'block', reason: renderPartial('stop-hook-missing', data), systemMessage: null}
  }
  const manual = input.slices.flatMap((slice) => (slice.state === 'passed' ? slice.manual : []))
  if (manual.length > 0) return {case: 'pass-manual', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-manual', {manual})}
  return {case: 'pass', decision: 'allow', reason: null, systemMessage: null}
}

/**
 * A slice never verified or stale, as the templates show it: `why` in one
 * line, and the fields of `evidence-state`, the words `tiers checkpoint`
 * prints for the slice.
 */
function unverifiedSlice(slice: Extract<SliceJudgement, {state: 'not-run' | 'stale'}>) {
  const stale = slice.state === 'stale'
  return {
    id: slice.id,
    why: stale ? `stale: since its latest run, ${slice.changed.join('; ')}` : 'never verified',
    title: stale ? 'STALE' : 'MISSING',
    sliceId: slice.id,
    sliceName: slice.name,
    missing: !stale,
    timestamp: stale ? slice.run : '',
    failures: [],
    changed: stale ? slice.changed : []
  }
}

/** At most this many lines of a list are said in the hook’s answer: the last of them counts the rest. */
const shownLines = 5

/** The lines of a list, at most `shownLines`: past that, the first ones and a line counting the rest (`more`). */
function firstFew(lines: readonly string[], more: (count: number) => string): string[] {
  return lines.length <= shownLines ? [...lines] : [...lines.slice(0, shownLines - 1), more(lines.length - shownLines + 1)]
}

/** The same check failing in two slices’ runs (the test command of an `--all`) is said once. */
function uniqueBy<Item>(items: readonly Item[], keyOf: (item: Item) => string): Item[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const key = keyOf(item)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The first line of the safety valve’s warning, as `stop-hook-valve` renders it. */
function valveHeading(blocks: number, max: number): string {
  return `WARNING: Stop allowed by the safety valve after ${blocks} blocks (limit ${max}).`
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
    if (counts?.version !== 1 || typeof counts.sessions !== 'object' || counts.sessions === null) {
      throw new FileReadError(file, 'Unexpected content, expected stop-hook counts with `version: 1` and `sessions`')
    }
    for (const [session, entry] of Object.entries(counts.sessions)) {
      const value = entry as Partial<StopHookCounts['sessions'][string]> | null
      // A count that is no whole number would never reach the valve (`"x" + 1`) or reach it never (`-1e9`).
      if (typeof value !== 'object' || value === null || !Number.isSafeInteger(value.blocks) || (value.blocks as number) < 0 || typeof value.at !== 'string') {
        throw new FileReadError(file, `Unexpected entry for session ${JSON.stringify(session)}, expected \`blocks\` (a whole number of 0 or more) and \`at\` (a time)`)
      }
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
