import path from 'node:path'
import type {CheckStatus, FailureCategory, VerificationLevel} from '@verification-tiers/protocol'
import {FileReadError, parseJsonText, readJsonFile, stateFolder, updateJsonFile} from '@verification-tiers/runtime'
import type {JsonFileKind} from '@verification-tiers/runtime'
import type {Project} from '@verification-tiers/project'
import {changedFiles, fileDigests} from './fingerprint.js'
import type {SourceFingerprint} from './fingerprint.js'
import {some} from './listing.js'
import {projectFingerprint} from './project-fingerprint.js'

/** One check of a run, as the status file keeps it. */
export interface CheckResult {
  /** `C-01.2` for the second criterion of C-01; `test-command` and `contracts` for the other levels. */
  criterion_id: string
  contract: string | null
  /** The criterion’s text, or what the level checks. */
  text: string
  level: VerificationLevel
  status: CheckStatus
  method: 'bash' | 'manual' | 'lint'
  command: string | null
  exit_code: number | null
  duration_ms: number | null
  details: string
  /** The end of the command’s output, for a failure. */
  output: string | null
  category: FailureCategory | null
}

/** One run of `tiers verify` for a slice. */
export interface VerificationRun {
  verification_run: {
    timestamp: string
    slice: string
    slice_name: string
    git_head: string | null
    worktree: string | null
    contracts_hash: string
    timeout_seconds: number
    /** Why the run proves nothing of the sources (they changed while it ran, or could not be fingerprinted); absent or `null` when it does. */
    unproven?: string | null
    /** What the fingerprint left out (the defaults, `freshness.exclude`), each the highest folder (ending in `/`) or file; absent when nothing. */
    left_out?: string[]
    /** Files the checks wrote during the run: new ones, and those earlier runs’ checks created; absent when none. */
    written_by_checks?: string[]
  }
  results: CheckResult[]
  summary: {total: number; pass: number; fail: number; timeout: number; manual: number}
  all_automated_pass: boolean
}

/** The status file: the latest run of each slice. */
export interface VerificationStatus {
  version: 1
  /** By slice id, without a prototype: a slice `__proto__` or `constructor` is a key like any other. */
  slices: Record<string, VerificationRun>
  /**
   * Files git does not track (any file, outside git) that the checks of a
   * run created and that are still there: a later run takes a change to
   * one while its checks run as theirs, not as an edit. Absent when none.
   */
  check_outputs?: string[]
  /**
   * What the sources held beyond git’s HEAD when runs were recorded, by the
   * runs’ `worktree` hash: each file’s kind and digest (`fileDigests`), so a
   * run gone stale names the files changed since. Only hashes a run still
   * has are kept; absent when none.
   */
  sources?: Record<string, Record<string, string>>
}

/** Path of the status file in a project folder. */
export function statusPath(dir: string): string {
  return path.join(dir, stateFolder, 'verification-status.json')
}

const statusKind: JsonFileKind<VerificationStatus> = {
  empty: () => ({version: 1, slices: Object.create(null) as Record<string, VerificationRun>}),
  parse(file, text) {
    const value = parseJsonText(file, text)
    const status = value as Partial<VerificationStatus> | null
    if (status?.version !== 1 || typeof status.slices !== 'object' || status.slices === null) {
      throw new FileReadError(file, 'Unexpected content, expected a verification status with `version: 1` and `slices`')
    }
    const outputs = status.check_outputs
    if (outputs !== undefined && !(Array.isArray(outputs) && outputs.every((file) => typeof file === 'string'))) {
      throw new FileReadError(file, 'Unexpected `check_outputs`, expected a list of paths')
    }
    const sources = status.sources
    const digests = (value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string')
    if (sources !== undefined && !(typeof sources === 'object' && sources !== null && !Array.isArray(sources) && Object.values(sources).every(digests))) {
      throw new FileReadError(file, 'Unexpected `sources`, expected the files of each worktree hash, each with its digest')
    }
    for (const [slice, run] of Object.entries(status.slices)) {
      if (!Array.isArray((run as Partial<VerificationRun>)?.results) || typeof (run as Partial<VerificationRun>).all_automated_pass !== 'boolean') {
        throw new FileReadError(file, `Unexpected run for \`${slice}\`, expected \`results\` and \`all_automated_pass\``)
      }
    }
    // `JSON.parse` makes `__proto__` an own key; copied onto a null prototype it stays one.
    const bare = <Value>(record: Record<string, Value>) => Object.assign(Object.create(null) as Record<string, Value>, record)
    const kept = sources === undefined ? {} : {sources: bare(Object.fromEntries(Object.entries(sources).map(([hash, files]) => [hash, bare(files)])))}
    return {...status, slices: bare(status.slices as Record<string, VerificationRun>), ...kept} as VerificationStatus
  }
}

/** The status file, or `null` when no run was ever recorded. */
export async function readVerificationStatus(dir: string): Promise<VerificationStatus | null> {
  const status = await readJsonFile(statusPath(dir), statusKind)
  return Object.keys(status.slices).length === 0 ? null : status
}

/**
 * The files earlier runs’ checks created (`check_outputs`), from the status
 * file; none when there is no status file, or one that cannot be read (its
 * `FileReadError` comes when a run is recorded, as before).
 */
export async function readCheckOutputs(dir: string): Promise<Set<string>> {
  try {
    return new Set((await readJsonFile(statusPath(dir), statusKind)).check_outputs ?? [])
  } catch (error) {
    if (error instanceof FileReadError) return new Set()
    throw error
  }
}

/** What a run learnt of the files its checks write: those created (`add`), and known ones no longer there (`drop`). */
export interface CheckOutputs {
  add: readonly string[]
  drop: readonly string[]
}

/**
 * Record runs as the latest of their slices, what they learnt of the checks’
 * outputs, and what their sources held beyond HEAD (`digests`, by their
 * `worktree` hash: `fileDigests`; `null` when not kept), under a lock,
 * atomically. What no run refers to any more is dropped.
 */
export async function recordRuns(
  dir: string,
  runs: readonly VerificationRun[],
  outputs: CheckOutputs = {add: [], drop: []},
  digests: Readonly<Record<string, string>> | null = null
): Promise<void> {
  await updateJsonFile(statusPath(dir), statusKind, (status) => {
    for (const run of runs) status.slices[run.verification_run.slice] = run
    const drop = new Set(outputs.drop)
    const kept = [...new Set([...(status.check_outputs ?? []), ...outputs.add])].filter((file) => !drop.has(file)).sort()
    if (kept.length > 0) status.check_outputs = kept
    else delete status.check_outputs
    const sources = status.sources ?? (Object.create(null) as NonNullable<VerificationStatus['sources']>)
    for (const run of runs) if (digests !== null && run.verification_run.worktree !== null) sources[run.verification_run.worktree] = {...digests}
    const used = new Set(Object.values(status.slices).map((run) => run.verification_run.worktree))
    for (const hash of Object.keys(sources)) if (!used.has(hash)) delete sources[hash]
    if (Object.keys(sources).length > 0) status.sources = sources
    else delete status.sources
  })
}

/** Totals of a run’s results. */
export function summarize(results: readonly CheckResult[]): VerificationRun['summary'] {
  const count = (status: CheckStatus) => results.filter((result) => result.status === status).length
  return {total: results.length, pass: count('pass'), fail: count('fail'), timeout: count('timeout'), manual: count('requires-human')}
}

/** Whether a run is evidence for the checkpoint now, and if not, why. */
export type Freshness =
  | {state: 'fresh'; run: VerificationRun}
  | {state: 'missing'}
  | {state: 'failed'; run: VerificationRun; failures: CheckResult[]}
  | {state: 'stale'; run: VerificationRun; changed: string[]}

/**
 * Judge the latest run of a slice against what the sources and contracts are
 * now. Given what the sources held beyond HEAD when it ran (`heldThen`, the
 * status file’s `sources` of the run’s `worktree`) and now (`now.digests`),
 * both `fileDigests`, uncommitted changes that differ name the files.
 */
export function judgeFreshness(
  run: VerificationRun | undefined,
  now: Pick<SourceFingerprint, 'gitHead' | 'worktree'> & {unproven?: string | null; contractsHash: string; digests?: Readonly<Record<string, string>> | null},
  heldThen?: Readonly<Record<string, string>>
): Freshness {
  if (!run) return {state: 'missing'}
  const failures = run.results.filter((result) => result.status === 'fail' || result.status === 'timeout')
  if (!run.all_automated_pass || failures.length > 0) return {state: 'failed', run, failures}
  const changed: string[] = []
  const seen = run.verification_run
  // A fingerprint that proves nothing, then or now, matches nothing.
  if (seen.unproven) changed.push(seen.unproven)
  // The same reason then and now is said once.
  if (now.unproven && now.unproven !== seen.unproven) changed.push(now.unproven)
  if (changed.length > 0) return {state: 'stale', run, changed}
  if (seen.contracts_hash !== now.contractsHash) changed.push('the contracts changed')
  if (seen.git_head !== now.gitHead) changed.push(`git HEAD moved (${short(seen.git_head)} → ${short(now.gitHead)})`)
  else if (seen.worktree !== now.worktree) changed.push(`uncommitted changes differ${namedFiles(heldThen, now.digests)}`)
  return changed.length > 0 ? {state: 'stale', run, changed} : {state: 'fresh', run}
}

/** What the sources held beyond HEAD when `run` ran, as the status file keeps it (`sources`); `undefined` when not kept. */
export function heldThen(status: VerificationStatus | null, run: VerificationRun): Readonly<Record<string, string>> | undefined {
  const hash = run.verification_run.worktree
  return hash !== null && status?.sources && Object.hasOwn(status.sources, hash) ? status.sources[hash] : undefined
}

/** The sources of a project as they are now, with their `fileDigests` to name what changed since a run. */
export async function digested(project: Project): Promise<SourceFingerprint & {digests: Record<string, string> | null}> {
  const fingerprint = await projectFingerprint(project)
  return {...fingerprint, digests: fingerprint.unproven ? null : fileDigests(fingerprint.files)}
}

/** The files changed between two `fileDigests`, as ` (src/a.ts edited, …)`; nothing when either is unknown or none differs. */
function namedFiles(then: Readonly<Record<string, string>> | undefined, now: Readonly<Record<string, string>> | null | undefined): string {
  if (!then || !now) return ''
  const files = changedFiles(then, now)
  return files.length === 0 ? '' : ` (${some(files)})`
}

function short(head: string | null): string {
  return head ? head.slice(0, 7) : 'none'
}
