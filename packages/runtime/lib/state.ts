import {readdir} from 'node:fs/promises'
import path from 'node:path'
import isRecord from 'is-plain-obj'
import type {Classification} from '@verification-tiers/protocol'
import {IdError, isSliceId} from './ids.js'
import {FileReadError} from './file-error.js'
import {jsonPlace, parseJson, readJsonFile, updateJsonFile} from './json-file.js'
import type {JsonFileKind} from './json-file.js'
import {deriveDecision, historyProblem} from './history.js'
import type {HistoryCheck} from './history.js'
import {isSlicePins, slicePinsShape} from './weakening.js'
import type {SlicePins} from './weakening.js'

/** One rejection, as logged. */
export interface RejectionEntry {
  /** The user’s words, verbatim. */
  feedback: string
  /** Whether the user chose “partially”. */
  partial: boolean
  at: string
  /** Set when the rejection is routed. */
  classification: Classification | null
  action: string | null
  detail: string | null
  routedAt: string | null
  /** The rejections that opened the escalation when it was recorded (absent from files written before it was kept). */
  threshold?: number
}

/** Who gave an answer: git’s `user.name` and `user.email` where it was given, each `null` when unset. */
export interface AnswerBy {
  name: string | null
  email: string | null
}

/**
 * How an answer came: `terminal`, typed by a person at a terminal (no coding
 * agent’s marker in the environment, standard input a terminal); `relayed`,
 * given without one (an orchestrator passing on the person’s words), which
 * only a rejection may be.
 */
export type AnswerChannel = 'terminal' | 'relayed'

/** Who gave an answer, and how: what the caller knows, kept with it. */
export interface AnswerOrigin {
  by: AnswerBy | null
  channel: AnswerChannel
}

/**
 * Who, how and on what an answer was given. Optional on read: files
 * written before they were kept have none.
 */
export interface AnswerProvenance {
  /** Git’s identity where it was given; `null` when neither is set. */
  by?: AnswerBy | null
  channel?: AnswerChannel
  /** Hash of the slice’s contracts it answered (as `contractsHash`). */
  fingerprint?: string
}

/** An escalation choice, as logged. */
export interface EscalationEntry extends AnswerProvenance {
  choice: string
  decision: 'rescope' | 'pair' | 'skip'
  at: string
  /** Rejections counted when it was made. */
  rejectionCount: number
}

/** How the slice’s checkpoint ended. */
export interface SliceDecision {
  /** `approved` by the user; `accepted-as-auto` by skipping verification at the escalation. */
  status: 'approved' | 'accepted-as-auto'
  at: string
  /** Hash of the slice’s contracts when decided: a later change makes the decision stale. */
  contractsHash: string
  /** For `accepted-as-auto`: the feedback of the rejections left unresolved. */
  mismatch: string[]
}

/** One reply recorded with `tiers respond`, as logged; `tiers respond --undo` withdraws the latest that stands. */
export interface AnswerEntry extends AnswerProvenance {
  /** The reply, verbatim. */
  reply: string
  outcome: 'approval' | 'rejection'
  at: string
  /** The decision the answer replaced: put back when it is withdrawn. */
  decisionBefore: SliceDecision | null
  /** Escalation choices logged before it: one logged after it keeps it from being withdrawn. */
  escalationsBefore: number
  /** When it was withdrawn; `null` while it stands. */
  withdrawnAt: string | null
  /** A withdrawn rejection’s entry, taken out of `rejections` and kept here with its route. */
  withdrawnRejection: RejectionEntry | null
  /** Who withdrew it: git’s identity where it was withdrawn (absent from answers withdrawn before it was kept). */
  withdrawnBy?: AnswerBy | null
  /** How it was withdrawn: `terminal`, by the person, the only way `tiers` takes one (absent as `withdrawnBy`). */
  withdrawnChannel?: AnswerChannel
  /** An approval’s: the slice as the person approved it (absent from files written before it was kept). */
  pins?: SlicePins
}

/** Everything kept about one slice. */
export interface SliceState {
  version: 1
  slice: string
  /** Rejections since the slice last (re)started; escalation opens at the threshold. */
  rejectionCount: number
  /** Every rejection ever, oldest first. */
  rejections: RejectionEntry[]
  escalations: EscalationEntry[]
  decision: SliceDecision | null
  /** Every reply recorded with `tiers respond`, withdrawn ones too, oldest first (absent from files written before it was kept). */
  answers: AnswerEntry[]
}

/** Folder of the per-slice state files inside the project folder. */
export const stateFolder = 'tiers'

/**
 * The ids of the slices whose state `<dir>/tiers/` keeps (`S-01.json`),
 * sorted: the folder's other files (the run status, the stop hook's count)
 * are none. None when the folder is not there or cannot be listed.
 */
export async function keptSliceIds(dir: string): Promise<string[]> {
  const names = await readdir(path.join(dir, stateFolder)).catch(() => [] as string[])
  return names
    .flatMap((name) => (name.endsWith('.json') ? [name.slice(0, -'.json'.length)] : []))
    .filter(isSliceId)
    .sort()
}

/**
 * Path of a slice’s state file: `<dir>/tiers/<slice>.json`. Throws an
 * `IdError` for an id that is not a slice id, and for any path that would not
 * be a file directly inside the state folder (which the id’s pattern already
 * rules out: a second guard, should it ever be loosened).
 */
export function statePath(dir: string, sliceId: string): string {
  if (!isSliceId(sliceId)) throw new IdError('slice', sliceId)
  const folder = path.resolve(dir, stateFolder)
  const file = path.resolve(folder, `${sliceId}.json`)
  if (path.dirname(file) !== folder || path.basename(file) !== `${sliceId}.json`) throw new IdError('slice', sliceId)
  return path.join(dir, stateFolder, `${sliceId}.json`)
}

export function emptySliceState(sliceId: string): SliceState {
  return {version: 1, slice: sliceId, rejectionCount: 0, rejections: [], escalations: [], decision: null, answers: []}
}

/**
 * Read a slice’s state; a missing file is a fresh state, a broken one a
 * `FileReadError`. With `check` `all-but-decision`, a stored `decision` the
 * history does not give is read as the history gives it: for the person at
 * a terminal, whose answer gives the decision anew.
 */
export async function readSliceState(dir: string, sliceId: string, {check = 'all'}: {check?: HistoryCheck} = {}): Promise<SliceState> {
  return readJsonFile(statePath(dir, sliceId), stateKind(sliceId, check))
}

/**
 * Change a slice’s state under a lock and write it atomically, so concurrent
 * callers never lose an update and a crash never leaves a half-written file.
 * With `check` `all-but-decision`, a stored `decision` the history does not
 * give is read as the history gives it: for an answer given at a terminal,
 * which gives the decision anew.
 */
export async function updateSliceState<Result>(
  dir: string,
  sliceId: string,
  change: (state: SliceState) => Result | Promise<Result>,
  {check = 'all'}: {check?: HistoryCheck} = {}
): Promise<Result> {
  return updateJsonFile(statePath(dir, sliceId), stateKind(sliceId, check), change)
}

function stateKind(sliceId: string, check: HistoryCheck = 'all'): JsonFileKind<SliceState> {
  return {parse: (file, text) => parseSliceState(file, text, sliceId, check), empty: () => emptySliceState(sliceId)}
}

const fixHint = 'fix or remove the file (it is never reset silently)'

/**
 * Parse and check a state file’s text: every field of the slice state, a
 * `rejectionCount` that agrees with the rejection log, and a history that
 * agrees with itself (`historyProblem`: as `check` says; `none` for a copy
 * compared entry by entry). Anything else is a `FileReadError` naming the
 * file, the line and column and the field. The `decision` read is the one
 * the history gives (`deriveDecision`), never the stored one alone.
 */
export function parseSliceState(file: string, text: string, sliceId: string, check: HistoryCheck | 'none' = 'all'): SliceState {
  const parsed = parseJson(text)
  if (!parsed.ok) throw new FileReadError(file, `${parsed.reason}; ${fixHint}`, parsed.place)
  const problem = checkSliceState(parsed.value, sliceId, check)
  if (problem) throw new FileReadError(file, `${problem.reason}; ${problem.hint ?? fixHint}`, jsonPlace(text, problem.path))
  const value = parsed.value as Omit<SliceState, 'answers'> & {answers?: AnswerEntry[]}
  // A file written before answers were logged has none to withdraw.
  const state = {...value, answers: value.answers ?? []}
  return {...state, decision: deriveDecision(state)}
}

/** What is wrong with a state, the path of the value it is about, and the way out when it is not to fix the file. */
interface Problem {
  path: Array<string | number>
  reason: string
  hint?: string
}

/** A check of one field: what it takes, as messages say it. */
interface FieldCheck {
  test: (value: unknown) => boolean
  expected: string
}

const isText = (value: unknown): value is string => typeof value === 'string'
const text: FieldCheck = {test: isText, expected: 'a string'}
const textOrNull: FieldCheck = {test: (value) => value === null || isText(value), expected: 'null or a string'}
/** A field files written before it was kept lack: absent, or as `check` says. */
const optional = (check: FieldCheck): FieldCheck => ({test: (value) => value === undefined || check.test(value), expected: check.expected})
const wholeNumber: FieldCheck = {test: (value) => Number.isSafeInteger(value) && (value as number) >= 0, expected: 'a whole number'}
const oneOf = (values: readonly string[], orNull = false): FieldCheck => {
  const names = [...(orNull ? ['null'] : []), ...values.map((value) => `\`${value}\``)]
  return {
    test: (value) => (orNull && value === null) || values.includes(value as string),
    expected: `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
  }
}

const classifications = ['test_gap', 'contract_gap', 'implementation_gap'] as const satisfies readonly Classification[]

// Typed by the entries’ keys: a field added to an entry must be checked here too.
const rejectionFields: Record<keyof RejectionEntry, FieldCheck> = {
  feedback: text,
  partial: {test: (value) => typeof value === 'boolean', expected: '`true` or `false`'},
  at: text,
  classification: oneOf(classifications, true),
  action: textOrNull,
  detail: textOrNull,
  routedAt: textOrNull,
  threshold: optional({test: (value) => Number.isSafeInteger(value) && (value as number) >= 1, expected: 'a whole number of 1 or more'})
}
const isBy = (value: unknown) => isRecord(value) && Object.keys(value).length === 2 && textOrNull.test(value.name) && textOrNull.test(value.email)
const byOrNull: FieldCheck = optional({test: (value) => value === null || isBy(value), expected: 'null or `{"name", "email"}` (each a string or null)'})
const channel: FieldCheck = optional(oneOf(['terminal', 'relayed']))
const provenanceFields: Record<keyof AnswerProvenance, FieldCheck> = {
  by: byOrNull,
  channel,
  fingerprint: optional(text)
}
const escalationFields: Record<keyof EscalationEntry, FieldCheck> = {
  choice: text,
  decision: oneOf(['rescope', 'pair', 'skip']),
  at: text,
  rejectionCount: wholeNumber,
  ...provenanceFields
}
const decisionFields: Record<keyof SliceDecision, FieldCheck> = {
  status: oneOf(['approved', 'accepted-as-auto']),
  at: text,
  contractsHash: text,
  mismatch: {test: (value) => Array.isArray(value) && value.every(isText), expected: 'a list of strings'}
}
const isDecision = (value: unknown) => isRecord(value) && Object.entries(decisionFields).every(([key, check]) => check.test(value[key]))
const isRejection = (value: unknown) => isRecord(value) && Object.entries(rejectionFields).every(([key, check]) => check.test(value[key]))
const answerFields: Record<keyof AnswerEntry, FieldCheck> = {
  reply: text,
  outcome: oneOf(['approval', 'rejection']),
  at: text,
  decisionBefore: {test: (value) => value === null || isDecision(value), expected: 'null or a decision (`status`, `at`, `contractsHash`, `mismatch`)'},
  escalationsBefore: wholeNumber,
  withdrawnAt: textOrNull,
  withdrawnRejection: {test: (value) => value === null || isRejection(value), expected: 'null or a rejection entry'},
  withdrawnBy: byOrNull,
  withdrawnChannel: channel,
  pins: optional({test: isSlicePins, expected: slicePinsShape}),
  ...provenanceFields
}

function checkSliceState(value: unknown, sliceId: string, check: HistoryCheck | 'none'): Problem | null {
  if (!isRecord(value)) return {path: [], reason: 'Unexpected content, expected a slice state object'}
  if (value.version !== 1) return {path: ['version'], reason: `Unexpected \`version\` ${shown(value.version)}, expected 1`}
  if (value.slice !== sliceId) return {path: ['slice'], reason: `Unexpected \`slice\` ${shown(value.slice)}, expected ${JSON.stringify(sliceId)}`}
  if (!wholeNumber.test(value.rejectionCount)) {
    return {path: ['rejectionCount'], reason: `Unexpected \`rejectionCount\` ${shown(value.rejectionCount)}, expected a whole number`}
  }
  const problem =
    checkList(value, 'rejections', rejectionFields) ??
    checkList(value, 'escalations', escalationFields) ??
    (value.answers === undefined ? null : checkList(value, 'answers', answerFields)) ??
    (value.decision === null ? null : checkEntry(value.decision, ['decision'], decisionFields))
  if (problem) return problem
  const state = {...(value as unknown as SliceState), answers: (value.answers ?? []) as AnswerEntry[]}
  return checkCount(state) ?? (check === 'none' ? null : historyProblem(state, {check, answersKept: value.answers !== undefined}))
}

/**
 * `rejectionCount` counts the rejections since the slice last restarted: the
 * log less those a re-scope left behind (each re-scope records the count it
 * reset). A count that disagrees is an error: neither can be trusted over
 * the other.
 */
function checkCount(state: SliceState): Problem | null {
  const restarted = state.escalations.filter((entry) => entry.decision === 'rescope').reduce((sum, entry) => sum + entry.rejectionCount, 0)
  const logged = state.rejections.length
  if (restarted > logged) {
    return {
      path: ['escalations'],
      reason: `Unexpected re-scopes of ${restarted} rejections in \`escalations\`, expected at most the ${logged} in \`rejections\``
    }
  }
  if (state.rejectionCount !== logged - restarted) {
    const since = restarted === 0 ? `the ${logged} in \`rejections\`` : `the ${logged} in \`rejections\` less the ${restarted} before re-scopes`
    return {path: ['rejectionCount'], reason: `Unexpected \`rejectionCount\` ${state.rejectionCount}, expected ${logged - restarted}: ${since}`}
  }
  return null
}

function checkList(state: Record<string, unknown>, name: 'rejections' | 'escalations' | 'answers', fields: Record<string, FieldCheck>): Problem | null {
  const list = state[name]
  if (!Array.isArray(list)) return {path: [name], reason: `Unexpected \`${name}\` ${shown(list)}, expected a list`}
  for (const [index, entry] of list.entries()) {
    const problem = checkEntry(entry, [name, index], fields)
    if (problem) return problem
  }
  return null
}

function checkEntry(entry: unknown, path: Array<string | number>, fields: Record<string, FieldCheck>): Problem | null {
  const name = fieldName(path)
  if (!isRecord(entry)) return {path, reason: `Unexpected \`${name}\` ${shown(entry)}, expected an object`}
  for (const [key, check] of Object.entries(fields)) {
    if (check.test(entry[key])) continue
    const found = Object.hasOwn(entry, key) ? shown(entry[key]) : 'missing'
    return {path: Object.hasOwn(entry, key) ? [...path, key] : path, reason: `Unexpected \`${name}.${key}\` ${found}, expected ${check.expected}`}
  }
  return null
}

/** `rejections[2]`, `decision`. */
function fieldName(path: ReadonlyArray<string | number>): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('')
}

/** A value as a message shows it: JSON, cut short, or `missing`. */
function shown(value: unknown): string {
  if (value === undefined) return 'missing'
  const json = JSON.stringify(value)
  return json.length > 40 ? `${json.slice(0, 39)}…` : json
}
