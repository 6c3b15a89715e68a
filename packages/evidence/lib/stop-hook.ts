import path from 'node:path'
import {defaultMaxStopBlocks, templateHelpers} from '@verification-tiers/protocol'
import {approvedSince, FileReadError, parseJsonText, readJsonFile, renderPartial, stateFolder, updateJsonFile} from '@verification-tiers/runtime'
import type {JsonFileKind} from '@verification-tiers/runtime'
import {some} from './listing.js'

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
  | {id: string; name: string; state: 'failed'; failures: Array<{id: string; details: string; output?: string | null}>}
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
 * criteria a person has to check and what changed since a person approved
 * a slice (`changed`), which only a person may confirm. What the gate could not read or prove
 * (`problems`, one line each naming the file) blocks too, before anything
 * else, under the same valve. `notes` end the answer, whatever it is.
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
  /** What is said whatever the decision, holding nothing (state files no slice has), one line each. */
  notes?: readonly string[]
  /** What lowered the bar of a slice since a person approved it, one line each (old → new, and where): said with the decision, for the person. */
  changed?: readonly string[]
}): StopDecision {
  const decision = decideStopAlone(input)
  const notes = (input.notes ?? []).join('\n')
  if (notes === '') return decision
  // Said to whoever reads the answer: the agent on a block, the person on an allow.
  if (decision.decision === 'block') return {...decision, reason: `${decision.reason}\n${notes}`}
  return {...decision, systemMessage: decision.systemMessage ? `${decision.systemMessage}\n${notes}` : notes}
}

/** `decideStop` before its notes. */
function decideStopAlone(input: Parameters<typeof decideStop>[0]): StopDecision {
  const max = input.maxBlocks ?? defaultMaxStopBlocks
  const command = input.command ?? 'tiers'
  // The stop hook measures from the approvals alone (the base is `tiers ci --base`’s).
  const changed = input.changed ?? []
  const changedSince = approvedSince
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
  const notVerified = input.slices.filter(
    (slice): slice is Extract<SliceJudgement, {state: 'not-run' | 'stale'}> => slice.state === 'not-run' || slice.state === 'stale'
  )
  // A few slices are said in the checkpoint’s words; more are grouped by state, counted, the first few named.
  const grouped = notVerified.length > detailedSlices
  const unverified = grouped ? [] : notVerified.map(unverifiedSlice)
  const groups = grouped ? sliceGroups(notVerified) : []
  // A contract in several slices gives its criteria once.
  const remaining = uniqueBy(
    notVerified.flatMap((slice) => slice.remaining),
    (criterion) => criterion.id
  )
  const failures = uniqueBy(
    input.slices.flatMap((slice) => (slice.state === 'failed' ? slice.failures : [])),
    (failure) => `${failure.id}\0${failure.details}`
  )
  const shownFailures = failures.slice(0, listedCriteria)
  const claims = firstFew(input.claims ?? [], (more) => `and ${more} more places in the workflow’s files call slices in progress complete`)
  const counts = {
    groups,
    claims,
    moreFailures: failures.length - shownFailures.length,
    criteriaIds:
      remaining.length === 0
        ? 'none'
        : some(
            remaining.map((criterion) => criterion.id),
            listedCriteria
          ),
    remainingSummary: grouped ? remainingSummary(remaining, command) : null
  }
  if (failures.length > 0) {
    const data = {
      ...counts,
      failures: shownFailures,
      failureCount: failures.length,
      unverified,
      remaining,
      noun: failures.length === 1 ? 'criterion' : 'criteria',
      blocks: input.blocks,
      max,
      command,
      changed,
      changedSince
    }
    return valve
      ? {case: 'failed-valve', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-valve', data)}
      : {case: 'failed', decision: 'block', reason: renderPartial('stop-hook-failed', data), systemMessage: null}
  }
  if (notVerified.length > 0) {
    const stale = notVerified.filter((slice) => slice.state === 'stale').length
    const headline = stale === 0 ? 'not run' : stale === notVerified.length ? 'stale' : 'not run or stale'
    const data = {
      ...counts,
      headline,
      unverified,
      remaining,
      failures: [],
      broken: input.broken ?? null,
      blocks: input.blocks,
      max,
      command,
      changed,
      changedSince
    }
    return valve
      ? {case: 'missing-valve', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-valve', data)}
      : {case: 'missing', decision: 'block', reason: renderPartial('stop-hook-missing', data), systemMessage: null}
  }
  const passed = input.slices.filter((slice): slice is Extract<SliceJudgement, {state: 'passed'}> => slice.state === 'passed')
  const manual = passed.flatMap((slice) => slice.manual)
  // A lowered bar is the person’s to confirm: said to them, as the criteria they check are.
  if (manual.length > 0 || changed.length > 0) {
    // Many criteria for a person are counted with the slices that wait: each slice’s checkpoint lists its own.
    const waiting =
      manual.length > listedCriteria
        ? `${plural(passed.length, 'slice')} wait for a person’s answer at their checkpoints, ${manual.length} criteria to check (${command} checkpoint <slice> shows a slice’s): ${names(passed)}`
        : null
    return {case: 'pass-manual', decision: 'allow', reason: null, systemMessage: renderPartial('stop-hook-manual', {manual, waiting, changed, changedSince})}
  }
  return {case: 'pass', decision: 'allow', reason: null, systemMessage: null}
}

/** Past this many slices not verified, the hold groups them by state, counts them and names the first few, and counts the criteria that remain. */
const detailedSlices = 3

/** Slices named in a group: the rest are counted. */
const namedSlices = 5

/** Criteria (or failures) listed one by one at most: the rest are counted. */
const listedCriteria = 10

/**
 * The slices never verified or stale, a line per state: never verified,
 * then stale by what changed since their runs, so an edit that makes every
 * run stale is said once. Each counts its slices and names the first few.
 */
function sliceGroups(slices: ReadonlyArray<Extract<SliceJudgement, {state: 'not-run' | 'stale'}>>): string[] {
  const neverRun = slices.filter((slice) => slice.state === 'not-run')
  const byChange = new Map<string, Array<(typeof slices)[number]>>()
  for (const slice of slices) {
    if (slice.state !== 'stale') continue
    const why = templateHelpers.join(slice.changed)
    byChange.set(why, [...(byChange.get(why) ?? []), slice])
  }
  return [
    ...(neverRun.length > 0 ? [`Never verified, ${plural(neverRun.length, 'slice')}: ${names(neverRun)}`] : []),
    ...[...byChange].map(
      ([why, stale]) => `Stale, ${plural(stale.length, 'slice')}, since ${stale.length === 1 ? 'its latest run' : 'their latest runs'} ${why}: ${names(stale)}`
    )
  ]
}

/** `S-01 (Name), S-02 (Name), …, and 3 more`: the first `namedSlices` slices named, the rest counted; a slice named by its id (of a project named by its folder, `S-03 in <dir>`) once. */
function names(slices: ReadonlyArray<{id: string; name: string}>): string {
  const bare = (slice: {id: string; name: string}) => slice.name === slice.id || slice.id.startsWith(`${slice.name} in `)
  return some(
    slices.map((slice) => (bare(slice) ? slice.id : `${slice.id} (${slice.name})`)),
    namedSlices
  )
}

/** `1 slice`, `3 slices`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** The criteria that remain, counted: how many for a person, how many by their commands, and where each slice’s are listed. */
function remainingSummary(remaining: readonly RemainingCriterion[], command: string): string {
  const forPerson = remaining.filter((criterion) => criterion.forPerson).length
  const byCommand = remaining.length - forPerson
  const who =
    forPerson === 0
      ? 'each checked by its command'
      : byCommand === 0
        ? 'each for a person at the checkpoint'
        : `${forPerson} for a person at the checkpoint, ${byCommand} checked by their commands`
  return `${remaining.length}, ${who} (${command} contracts --slice <slice> lists a slice’s)`
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
        throw new FileReadError(
          file,
          `Unexpected entry for session ${JSON.stringify(session)}, expected \`blocks\` (a whole number of 0 or more) and \`at\` (a time)`
        )
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
