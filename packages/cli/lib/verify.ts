import path from 'node:path'
import {readFile} from 'node:fs/promises'
import {recordRuns, runCommand, sourceFingerprint, summarize} from '@verification-tiers/evidence'
import type {CheckResult, CommandResult, VerificationRun} from '@verification-tiers/evidence'
import {defaultCheckTimeoutSeconds} from '@verification-tiers/protocol'
import type {FailureCategory, VerificationLevel} from '@verification-tiers/protocol'
import {stateFolder} from '@verification-tiers/runtime'
import {gateContext} from './project.js'
import type {Project, ProjectSlice} from './project.js'
import type {VFileMessage} from 'vfile-message'

export interface VerifyOptions {
  /** Seconds per command, unless a criterion sets its own. */
  timeoutSeconds?: number
  now?: () => Date
}

/** The folder criteria run in: the one holding the project folder. */
export function projectRoot(project: Project): string {
  return path.dirname(path.resolve(project.dir))
}

/** The sources as they are now, leaving out tiers’ own state (which runs and responses write). */
export function projectFingerprint(project: Project) {
  const root = projectRoot(project)
  return sourceFingerprint(root, [path.relative(root, path.join(path.resolve(project.dir), stateFolder)) || '.'])
}

/** The project’s own test or compile command (`config.json` `test.command`), if any. */
function testCommand(project: Project): string | null {
  const command = (project.config as {test?: {command?: unknown}}).test?.command
  return typeof command === 'string' && command.trim() !== '' ? command : null
}

/**
 * Run the three levels of verification for each slice: the project’s test command
 * (syntactic), its contracts found and valid (contract), and every criterion
 * with a command (behavioral); criteria without one require a human. Records
 * each run as its slice’s latest in the status file.
 */
export async function verifySlices(project: Project, slices: readonly ProjectSlice[], options: VerifyOptions = {}): Promise<VerificationRun[]> {
  const root = projectRoot(project)
  const timeoutSeconds = options.timeoutSeconds ?? defaultCheckTimeoutSeconds
  const run = (command: string, seconds = timeoutSeconds) => runCommand(command, {cwd: root, timeoutMs: seconds * 1000})
  const test = testCommand(project)
  // One test run serves every slice of an `--all`.
  const testResult = test ? await run(test) : null
  const runs: VerificationRun[] = []
  // Each contract file is linted once per run, however many slices it holds.
  const lintRuns = new Map<string, Promise<VFileMessage[]>>()
  const sliceRuns: Array<{slice: ProjectSlice; context: ReturnType<typeof gateContext>; results: CheckResult[]; timestamp: string}> = []
  for (const slice of slices) {
    const results: CheckResult[] = []
    if (test && testResult) results.push(commandCheck({id: 'test-command', contract: null, text: 'The project’s test command passes', level: 'syntactic', command: test, category: 'build_failure'}, testResult, timeoutSeconds))
    results.push(await contractCheck(slice, lintRuns))
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
          results.push(commandCheck({...base, command: criterion.check.command, category: 'acceptance_criteria_unmet'}, await run(criterion.check.command, seconds), seconds))
        } else if (tiers[position]?.effectiveTier === 'verify') {
          // Auto contracts’ prose criteria are ignored; verify ones go to the human checkpoint.
          results.push({criterion_id: id, contract: contract.id, text: criterion.text, level: 'behavioral', status: 'requires-human', method: 'manual', command: null, exit_code: null, duration_ms: null, details: `Please verify: ${criterion.text}`, output: null, category: null})
        }
      }
    }
    sliceRuns.push({slice, context, results, timestamp: (options.now ?? (() => new Date()))().toISOString()})
  }
  // One fingerprint after every command ran: a later slice’s command that
  // writes a file must not leave the earlier slices’ runs stale at once.
  const fingerprint = await projectFingerprint(project)
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
        timeout_seconds: timeoutSeconds
      },
      results,
      summary,
      all_automated_pass: summary.fail === 0 && summary.timeout === 0
    })
  }
  await recordRuns(project.dir, runs)
  return runs
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
  const output = [result.stdoutCut ? `[${result.stdoutCut} bytes cut]\n` : '', result.stdout, result.stderrCut ? `[${result.stderrCut} bytes cut]\n` : '', result.stderr].join('')
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
async function contractCheck(slice: ProjectSlice, lintRuns: Map<string, Promise<VFileMessage[]>>): Promise<CheckResult> {
  const base = {criterion_id: 'contracts', contract: null, text: 'The slice’s contracts are found and valid', level: 'contract' as const, method: 'lint' as const, command: null, exit_code: null, duration_ms: null, output: null}
  if (slice.missing.length > 0) {
    return {...base, status: 'fail', details: `not found: ${slice.missing.join(', ')}`, category: 'coordination_failure'}
  }
  const errors = await lintErrors(slice, lintRuns)
  if (errors.length > 0) return {...base, status: 'fail', details: errors.join('; '), category: 'lint_failure'}
  return {...base, status: 'pass', details: `${slice.contracts.map((loaded) => loaded.contract.label).join(', ')}: found, no lint errors`, category: null}
}

/** Errors (not warnings) of the verification-tiers preset inside the slice’s contracts. */
async function lintErrors(slice: ProjectSlice, lintRuns: Map<string, Promise<VFileMessage[]>>): Promise<string[]> {
  const {lintFile} = await import('./lint.js')
  const errors: string[] = []
  for (const file of new Set(slice.contracts.map((loaded) => loaded.file))) {
    let run = lintRuns.get(file)
    if (!run) {
      run = readFile(file, 'utf8').then((text) => lintFile(file, text))
      lintRuns.set(file, run)
    }
    const messages = await run
    for (const message of messages) {
      if (!message.fatal || !message.place) continue
      const line = 'start' in message.place ? message.place.start.line : message.place.line
      const inside = slice.contracts.some(({contract, file: from}) => from === file && contract.position.start.line <= line && line <= contract.position.end.line)
      if (inside) errors.push(`${path.basename(file)}:${line}: ${message.reason} (${message.ruleId})`)
    }
  }
  return errors
}
