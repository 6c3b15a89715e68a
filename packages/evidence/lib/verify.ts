import path from 'node:path'
import {readFile} from 'node:fs/promises'
import {checkTimeoutRule, isCheckTimeout} from '@verification-tiers/contracts/gate-terms'
import {gateContext, ProjectError} from '@verification-tiers/project'
import type {Project, ProjectSlice} from '@verification-tiers/project'
import {defaultCheckTimeoutSeconds} from '@verification-tiers/protocol'
import type {FailureCategory, VerificationLevel} from '@verification-tiers/protocol'
import {projectTestCommand} from '@verification-tiers/runtime'
import {compareFingerprints, fileDigests, goneOutputs} from './fingerprint.js'
import {some} from './listing.js'
import type {SourceChanges, SourceFingerprint} from './fingerprint.js'
import {InterruptedError} from './interrupted.js'
import {projectFingerprint, projectRoot} from './project-fingerprint.js'
import {contractLintCacheFile, lintContractTexts} from './lint-contracts.js'
import type {ContractLint, LintFiles} from './lint-contracts.js'
import type {LintNote} from './lint-in-worker.js'
import {stopAllGroups} from './process-groups.js'
import {runCommand} from './run-command.js'
import type {CommandResult} from './run-command.js'
import {readCheckOutputs, recordRuns, summarize} from './status.js'
import type {CheckResult, VerificationRun} from './status.js'

export interface VerifyOptions {
  /** Seconds per command, unless a criterion sets its own. */
  timeoutSeconds?: number
  /** Variables the commands get besides `baseEnvironment`; absent or `null`: the whole environment. */
  envAllow?: readonly string[] | null
  now?: () => Date
  /** Told of each check as it ends, in the order they run, so a caller can show progress; the test command once for all the slices (`slice` `null`). */
  onCheck?: (progress: CheckProgress) => void
  /**
   * Stops the run when it aborts (a program aborts it on SIGINT, SIGTERM or
   * SIGHUP): every running check’s process group is stopped and waited for,
   * nothing is recorded, and the run rejects with the abort’s reason when
   * it is an `InterruptedError`, else with one for SIGINT.
   */
  signal?: AbortSignal
  /** How the contract files not in the lint cache are linted (default: in a worker thread, see `lintInWorker`). */
  lintFiles?: LintFiles
}

/** A check that has just ended: its slice (`null` for the test command, which serves every slice) and its result. */
export interface CheckProgress {
  slice: string | null
  result: CheckResult
}

/**
 * What every command gets under `--env-allow`: what a shell and the usual
 * tools need to find programs, the home and temporary folders, the user,
 * the time zone and the locale. Nothing here is a secret.
 */
export const baseEnvironment = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TZ', 'LANG', 'LC_ALL', 'LC_CTYPE'] as const

/** The environment of the commands: all of `env`, or only `baseEnvironment` and the names allowed. */
export function checkEnvironment(allow: readonly string[] | null | undefined, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!allow) return env
  // No prototype: a name such as `__proto__` is a variable like any other.
  const kept = Object.create(null) as NodeJS.ProcessEnv
  for (const name of [...baseEnvironment, ...allow]) {
    const value = env[name]
    if (value !== undefined && Object.hasOwn(env, name)) kept[name] = value
  }
  return kept
}

/** Why a run proves nothing when `changed` (`<path> edited`, `<path> removed`, `git HEAD moved`) changed while its checks ran. */
export function changedWhileChecksRan(changed: readonly string[]): string {
  const files = changed.filter((item) => item !== 'git HEAD moved').length
  const hint =
    files === 0 ? '' : `; if the checks write ${files === 1 ? 'it' : 'them'} themselves, name ${files === 1 ? 'it' : 'them'} in \`freshness.exclude\``
  return `the sources changed while the checks ran (${some(changed)}${hint})`
}

/**
 * The sources a run proves, from the fingerprints before and after its
 * checks: the one after, marked unproven when either is or when something
 * changed that the checks did not write; with the files the checks wrote
 * (new ones, and `known` ones written again), which are no change.
 */
function afterChecks(
  before: SourceFingerprint,
  after: SourceFingerprint,
  known: ReadonlySet<string>
): {fingerprint: SourceFingerprint; changes: SourceChanges} {
  if (before.unproven || after.unproven)
    return {
      fingerprint: {...(before.unproven ? before : after), unproven: before.unproven ?? after.unproven},
      changes: {changed: [], created: [], rewritten: []}
    }
  const changes = compareFingerprints(before, after, known)
  return {fingerprint: {...after, unproven: changes.changed.length > 0 ? changedWhileChecksRan(changes.changed) : null}, changes}
}

/**
 * Run the three levels of verification for each slice: the project’s test command
 * (syntactic), its contracts found and valid (contract), and every criterion
 * with a command (behavioral); criteria without one require a human. Records
 * each run as its slice’s latest in the status file.
 */
export async function verifySlices(project: Project, slices: readonly ProjectSlice[], options: VerifyOptions = {}): Promise<VerificationRun[]> {
  const timeoutSeconds = options.timeoutSeconds ?? defaultCheckTimeoutSeconds
  if (!isCheckTimeout(timeoutSeconds)) throw new RangeError(`Unexpected timeout of ${timeoutSeconds} s, expected ${checkTimeoutRule}`)
  // A broken timeout is found before anything runs, not after minutes of checks.
  checkTimeouts(slices)
  // The sources before any command runs, compared after the last: an edit
  // made while the checks ran was not checked, so the run proves nothing.
  // A file the checks of an earlier run created is theirs to write again.
  const known = await readCheckOutputs(project.dir)
  const before = await projectFingerprint(project)
  const {sliceRuns, lint} = await whileChecksRun((signal) => runChecks(project, slices, options, timeoutSeconds, signal), options.signal)
  const after = await projectFingerprint(project)
  const {fingerprint, changes} = afterChecks(before, after, known)
  const written = [...new Set([...changes.created, ...changes.rewritten])].sort()
  const runs: VerificationRun[] = []
  for (const {slice, context, results, timestamp} of sliceRuns) {
    const summary = summarize(results)
    runs.push({
      verification_run: {
        timestamp,
        slice: slice.id,
        slice_name: slice.name,
        git_head: fingerprint.gitHead,
        worktree: fingerprint.worktree,
        contracts_hash: context.contractsHash,
        timeout_seconds: timeoutSeconds,
        // Kept only when set: a run that proves its sources reads as it always did.
        ...(fingerprint.unproven ? {unproven: fingerprint.unproven} : {}),
        ...(fingerprint.leftOut.length > 0 ? {left_out: fingerprint.leftOut} : {}),
        ...(written.length > 0 ? {written_by_checks: written} : {})
      },
      results,
      summary,
      all_automated_pass: summary.fail === 0 && summary.timeout === 0
    })
  }
  // What the sources held beyond HEAD, kept once for these runs, so that when they go stale the files changed since can be named.
  const digests = fingerprint.unproven ? null : fileDigests(fingerprint.files)
  await recordRuns(project.dir, runs, {add: changes.created, drop: after.unproven ? [] : goneOutputs(known, after)}, digests)
  // Kept only once the run is: a run that could not be recorded leaves nothing behind.
  await (await lint)?.save()
  return runs
}

/** One slice’s checks, as they ran. */
interface SliceRun {
  slice: ProjectSlice
  context: ReturnType<typeof gateContext>
  results: CheckResult[]
  timestamp: string
}

/** Run every check of the slices; `signal` aborts on an interrupt. With the runs, the contract files' lint, when a slice needed it. */
async function runChecks(
  project: Project,
  slices: readonly ProjectSlice[],
  options: VerifyOptions,
  timeoutSeconds: number,
  signal: AbortSignal
): Promise<{sliceRuns: SliceRun[]; lint: Promise<ContractLint> | undefined}> {
  const root = projectRoot(project)
  const env = checkEnvironment(options.envAllow)
  const run = async (command: string, seconds = timeoutSeconds) => {
    const result = await runCommand(command, {cwd: root, timeoutMs: seconds * 1000, env, signal})
    // Interrupted: the run ends with an `InterruptedError` (see `whileChecksRun`); no other check runs, nothing is recorded.
    if (signal.aborted) await new Promise<never>(() => {})
    return result
  }
  const test = projectTestCommand(project.config)
  // One test run serves every slice of an `--all`.
  const testResult = test ? await run(test) : null
  const ended = (slice: string | null, result: CheckResult) => {
    options.onCheck?.({slice, result})
    return result
  }
  const testCheck =
    test && testResult
      ? ended(
          null,
          commandCheck(
            {id: 'test-command', contract: null, text: 'The project’s test command passes', level: 'syntactic', command: test, category: 'build_failure'},
            testResult,
            timeoutSeconds
          )
        )
      : null
  // Every contract file of the run is linted once, in one run of the engine, when a slice first needs it.
  let lintRun: Promise<ContractLint> | undefined
  const lintMessages = async () => (await (lintRun ??= lintContractFiles(project, slices, signal, options.lintFiles))).notes
  const sliceRuns: SliceRun[] = []
  for (const slice of slices) {
    const results: CheckResult[] = []
    if (testCheck) results.push({...testCheck})
    results.push(ended(slice.id, await contractCheck(slice, lintMessages)))
    // Tiers as the slice resolves them: a contract without one takes the slice’s stated tier.
    const context = gateContext(project, slice)
    const tiers = context.slice.contracts
    for (const [position, loaded] of slice.contracts.entries()) {
      const {contract} = loaded
      const prefix = contract.id ?? contract.name
      for (const [index, criterion] of contract.criteria.entries()) {
        const id = `${prefix}.${index + 1}`
        const base = {id, contract: contract.id, text: criterion.text, level: 'behavioral' as const}
        if (criterion.check?.command) {
          const seconds = criterion.check.timeout ?? timeoutSeconds
          results.push(
            ended(
              slice.id,
              commandCheck(
                {...base, command: criterion.check.command, category: 'acceptance_criteria_unmet'},
                await run(criterion.check.command, seconds),
                seconds
              )
            )
          )
        } else if (tiers[position]?.tierInSlice === 'verify') {
          // Auto contracts’ prose criteria are ignored; verify ones go to the human checkpoint.
          results.push({
            criterion_id: id,
            contract: contract.id,
            text: criterion.text,
            level: 'behavioral',
            status: 'requires-human',
            method: 'manual',
            command: null,
            exit_code: null,
            duration_ms: null,
            details: `Please verify: ${criterion.text}`,
            output: null,
            category: null
          })
        }
      }
    }
    sliceRuns.push({slice, context, results, timestamp: (options.now ?? (() => new Date()))().toISOString()})
  }
  return {sliceRuns, lint: lintRun}
}

/**
 * A criterion’s own `timeout` that is no timeout (`0`, `-5`, `.inf`,
 * `"abc"`): a `ProjectError` naming the file, line and column. Falling back
 * to the default instead would run a check with a limit nobody wrote.
 */
function checkTimeouts(slices: readonly ProjectSlice[]): void {
  for (const slice of slices) {
    for (const {contract, file} of slice.contracts) {
      for (const criterion of contract.criteria) {
        const bad = criterion.check?.invalidTimeout
        if (!bad) continue
        const {line, column} = bad.place.start
        throw new ProjectError(`${file}:${line}:${column}`, `Unexpected timeout \`${bad.text}\`, expected ${checkTimeoutRule}`)
      }
    }
  }
}

// On SIGINT or SIGTERM, the groups get SIGKILL this soon after SIGTERM: `tiers` ends within a second.
const interruptGraceMs = 200

/** The interruption an abort stands for: its reason when that is one, else SIGINT’s (exit 130). */
function interruption(reason: unknown): InterruptedError {
  return reason instanceof InterruptedError ? reason : new InterruptedError('SIGINT', 130)
}

/**
 * Run the checks until `outer` aborts: then every running check’s process
 * group is stopped and waited for, and the run rejects with an
 * `InterruptedError` for the caller to exit with. Nothing is recorded: a
 * partial run proves nothing.
 */
async function whileChecksRun<T>(work: (signal: AbortSignal) => Promise<T>, outer: AbortSignal | undefined): Promise<T> {
  if (outer?.aborted) throw interruption(outer.reason)
  const controller = new AbortController()
  let interrupt: (error: InterruptedError) => void = () => {}
  const interrupted = new Promise<never>((_resolve, reject) => (interrupt = reject))
  const onAbort = () => {
    controller.abort()
    void stopAllGroups(interruptGraceMs).finally(() => interrupt(interruption(outer?.reason)))
  }
  outer?.addEventListener('abort', onAbort, {once: true})
  try {
    // An interrupted check never settles (see `runChecks`): the interruption wins.
    const result = await Promise.race([work(controller.signal), interrupted])
    // A signal that came while the work held the thread is read from its
    // pipe only in a poll phase of the event loop: wait for one (between two
    // check phases) before deciding, or the abort would come after the record.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
    // An abort after the last command: nothing is recorded all the same.
    if (controller.signal.aborted) return await interrupted
    return result
  } finally {
    outer?.removeEventListener('abort', onAbort)
  }
}

interface CheckBase {
  id: string
  contract: string | null
  text: string
  level: VerificationLevel
  command: string
  category: FailureCategory
}

function commandCheck(base: CheckBase, result: CommandResult, seconds: number): CheckResult {
  let details: string
  if (result.status === 'timeout') details = `timed out after ${seconds} s; its process group was killed`
  else if (result.error) details = `could not start: ${result.error}`
  else if (result.exitCode === null) details = `killed by ${result.signal}`
  else details = `exit code ${result.exitCode} in ${(result.durationMs / 1000).toFixed(1)} s`
  const output = [
    result.stdoutCut ? `[${result.stdoutCut} bytes cut]\n` : '',
    result.stdout,
    result.stderrCut ? `[${result.stderrCut} bytes cut]\n` : '',
    result.stderr
  ].join('')
  return {
    criterion_id: base.id,
    contract: base.contract,
    text: base.text,
    level: base.level,
    status: result.status,
    method: 'bash',
    command: base.command,
    exit_code: result.exitCode,
    duration_ms: Math.round(result.durationMs),
    details,
    output: output === '' ? null : output,
    category: result.status === 'pass' ? null : result.status === 'timeout' || result.error ? 'tool_failure' : base.category
  }
}

/** Contract level: every contract the slice lists is found, and none has a lint error. */
async function contractCheck(slice: ProjectSlice, lintMessages: () => Promise<Map<string, LintNote[]>>): Promise<CheckResult> {
  const base = {
    criterion_id: 'contracts',
    contract: null,
    text: 'The slice’s contracts are found and valid',
    level: 'contract' as const,
    method: 'lint' as const,
    command: null,
    exit_code: null,
    duration_ms: null,
    output: null
  }
  if (slice.missing.length > 0) {
    return {...base, status: 'fail', details: `not found: ${slice.missing.join(', ')}`, category: 'coordination_failure'}
  }
  const errors = lintErrors(slice, await lintMessages())
  if (errors.length > 0) return {...base, status: 'fail', details: errors.join('; '), category: 'lint_failure'}
  return {...base, status: 'pass', details: `${slice.contracts.map((loaded) => loaded.contract.label).join(', ')}: found, no lint errors`, category: null}
}

/**
 * The lint messages of the contract files of `slices` whose contracts are
 * all found, by absolute path: replayed from the project's lint cache when
 * unchanged, else linted in a worker that `signal` ends.
 */
async function lintContractFiles(project: Project, slices: readonly ProjectSlice[], signal: AbortSignal, lint: LintFiles | undefined): Promise<ContractLint> {
  const files = new Set(slices.filter((slice) => slice.missing.length === 0).flatMap((slice) => slice.contracts.map((loaded) => loaded.file)))
  const texts = await Promise.all([...files].map(async (file) => ({path: file, text: await readFile(file, 'utf8')})))
  // The lint engine loads only when a file needs linting, and in the worker.
  return lintContractTexts(texts, signal, contractLintCacheFile(project.dir), lint)
}

/** Errors (not warnings) of the verification-tiers preset inside the slice’s contracts. */
function lintErrors(slice: ProjectSlice, lintMessages: ReadonlyMap<string, LintNote[]>): string[] {
  const errors: string[] = []
  for (const file of new Set(slice.contracts.map((loaded) => loaded.file))) {
    for (const message of lintMessages.get(path.resolve(file)) ?? []) {
      const {line} = message
      if (!message.fatal || line === null) continue
      const inside = slice.contracts.some(
        ({contract, file: from}) => from === file && contract.position.start.line <= line && line <= contract.position.end.line
      )
      if (inside) errors.push(`${path.basename(file)}:${line}: ${message.reason} (${message.ruleId})`)
    }
  }
  return errors
}
