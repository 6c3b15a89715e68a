import path from 'node:path'
import {decideStop, judgeFreshness, readStopBlocks, readVerificationStatus, recordStopDecision, renderVerificationSummary, statusPath, stopHookOutput} from '@verification-tiers/evidence'
import type {StopDecision, VerificationRun, VerificationStatus} from '@verification-tiers/evidence'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol'
import {describeJsonError, FileReadError, isHardFail, isPass, isSessionId, parseVerdict, sessionIdRule, toJobStatus} from '@verification-tiers/runtime'
import {exitCodes, firstLine, ProjectError, UserError} from '../errors.js'
import {findSlice, gateContext, loadProject} from '../project.js'
import type {Project} from '../project.js'
import {projectFingerprint, verifySlices} from '../verify.js'
import {defaultDir, dirOf, warningsOf} from './shared.js'
import type {Command} from './shared.js'

export const verify: Command = async (input) => {
  const [id] = input.positionals
  if (input.all === Boolean(id)) throw new UserError('Unexpected arguments, expected `tiers verify <slice>` or `tiers verify --all`')
  const project = await loadProject(dirOf(input))
  const slices = id ? [findSlice(project, id)] : project.slices
  const runs = await verifySlices(project, slices, {timeoutSeconds: input.timeout ?? undefined, envAllow: input.envAllow})
  const passed = runs.every((run) => run.all_automated_pass)
  return {
    text: runs.map(renderVerificationSummary).join('\n\n'),
    data: id ? {...runs[0]} : {runs, all_automated_pass: passed},
    warnings: warningsOf(project),
    exitCode: passed ? exitCodes.ok : exitCodes.user
  }
}

/** How long the stop hook waits for the end of its input, and how much of it it takes. */
const stopHookInputLimits = {seconds: 5, bytes: 1024 * 1024}

/**
 * Answer a coding agent’s Stop hook. Whatever goes wrong with the project or
 * tiers’ own files, it answers with one JSON object and exit 0: the agent
 * reads exit 2 as a block, which no safety valve could ever end. A problem
 * blocks, naming the file, under the safety valve; when even the blocks
 * cannot be counted, the agent may stop, with a warning. Only its caller’s
 * mistakes (input that is not a JSON object, a bad `TIERS_MAX_BLOCKS` or
 * `session_id`) exit 1, which the agent does not read as a block.
 */
export const stopHook: Command = async (input) => {
  const {text, warnings} = await readHookInput(input.stdin)
  let value: unknown
  try {
    value = text.trim() === '' ? {} : JSON.parse(text)
  } catch (error) {
    throw new UserError(`Unexpected stop-hook input (${describeJsonError(text, error)}), expected the hook’s JSON on standard input`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`
    throw new UserError(`Unexpected stop-hook input (${kind}), expected the hook’s JSON object on standard input`)
  }
  const hook = value as {session_id?: unknown; cwd?: unknown}
  const max = maxStopBlocks()
  const cwd = typeof hook.cwd === 'string' ? hook.cwd : process.cwd()
  const dir = input.dir ?? path.join(cwd, defaultDir)
  const session = typeof hook.session_id === 'string' && hook.session_id !== '' ? hook.session_id : 'default'
  if (!isSessionId(session)) throw new UserError(`Unexpected \`session_id\` ${JSON.stringify(session)} in the stop hook’s input, expected ${sessionIdRule}`)
  const output = await answerStop(dir, session, max)
  return {text: JSON.stringify(output), data: output, warnings, raw: true}
}

/** The hook’s answer for the project folder `dir`; never throws. */
async function answerStop(dir: string, session: string, max: number): Promise<Record<string, string>> {
  let project: Project | null = null
  let problem: string | null = null
  try {
    project = await loadProject(dir)
  } catch (error) {
    // No contracts here: not a verification-tiers project, so not ours to hold.
    if (error instanceof UserError) return {}
    problem = describeProblem(error)
  }
  let blocks: number
  try {
    blocks = await readStopBlocks(dir, session)
  } catch (error) {
    // Without its count the safety valve cannot work: let the agent stop rather than hold it forever.
    return {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop. Fix or remove the file.`}
  }
  let decision: StopDecision
  try {
    decision = project ? await decideProject(project, blocks, max) : decideStop({status: null, problem, blocks, maxBlocks: max, remaining: []})
  } catch (error) {
    decision = decideStop({status: null, problem: describeProblem(error), blocks, maxBlocks: max, remaining: []})
  }
  try {
    await recordStopDecision(dir, session, decision)
  } catch (error) {
    // A block that cannot be counted could hold the agent forever: let it stop, saying what the hook would have said.
    const said = decision.reason ?? decision.systemMessage
    const unchecked = decision.decision === 'block' ? `\nThe stop hook would have blocked: ${said}` : said ? `\n${said}` : ''
    return {systemMessage: `WARNING: ${firstLine(error)}; the stop hook cannot count its blocks, so it lets the agent stop.${unchecked}`}
  }
  return stopHookOutput(decision)
}

/** Decide by the status file, where a broken one counts as no run. */
async function decideProject(project: Project, blocks: number, max: number): Promise<StopDecision> {
  const remaining = project.contracts.flatMap(({contract}) =>
    contract.criteria.flatMap((criterion, index) => (criterion.check?.command ? [{id: `${contract.id ?? contract.name}.${index + 1}`, text: criterion.text}] : []))
  )
  let status: VerificationStatus | null = null
  let broken: string | null = null
  try {
    status = await freshStatus(project)
  } catch (error) {
    // A broken status file proves nothing: treat it as no run, and say so.
    if (!(error instanceof FileReadError)) throw error
    broken = firstLine(error)
  }
  return decideStop({status, broken, blocks, maxBlocks: max, remaining})
}

/** A file and what is wrong with it, or an error the hook did not expect, in one line. */
function describeProblem(error: unknown): string {
  if (error instanceof ProjectError || error instanceof FileReadError) return firstLine(error)
  const name = error instanceof Error ? error.name : 'error'
  return `Unexpected ${name} in tiers stop-hook (${firstLine(error)}), expected none: please report it`
}

/**
 * The hook’s input: standard input, given `stopHookInputLimits.seconds` to
 * end. Input that does not end in time, cannot be read or is too large is
 * read as empty input (so `session_id` `default` and the working
 * directory), with a warning.
 */
async function readHookInput(read: () => Promise<string>): Promise<{text: string; warnings: string[]}> {
  const {seconds, bytes} = stopHookInputLimits
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, seconds * 1000, null)
  })
  const reading = read()
  // A read that fails after the time limit has nothing left to tell.
  reading.catch(() => {})
  let text: string | null
  try {
    text = await Promise.race([reading, late])
  } catch (error) {
    return {text: '', warnings: [`Unexpected error reading the stop hook’s input (${firstLine(error)}), expected its JSON; read as empty input`]}
  } finally {
    clearTimeout(timer)
  }
  if (text === null) {
    // The read goes on, but must not keep the process alive: the answer is due.
    process.stdin.unref?.()
    return {text: '', warnings: [`Unexpected standard input still open after ${seconds} s, expected the stop hook’s JSON and the end of its input; read as empty input`]}
  }
  const size = Buffer.byteLength(text)
  if (size > bytes) {
    return {text: '', warnings: [`Unexpected stop-hook input of ${size} bytes, expected at most ${bytes} bytes; read as empty input`]}
  }
  return {text, warnings: []}
}

/**
 * The status file with the runs of the project’s slices, or `null` when there
 * is none or a run no longer matches the sources or contracts: a run from
 * before the last change proves nothing. Runs of slices the project no longer
 * has are left out; a run of the project’s that is not a run throws a
 * `FileReadError` naming the file.
 */
async function freshStatus(project: Project): Promise<VerificationStatus | null> {
  const status = await readVerificationStatus(project.dir)
  if (!status) return null
  const slices = Object.create(null) as VerificationStatus['slices']
  let fingerprint: Awaited<ReturnType<typeof projectFingerprint>> | null = null
  for (const [id, run] of Object.entries(status.slices)) {
    const slice = project.slices.find((candidate) => candidate.id === id)
    if (!slice) continue
    checkRun(statusPath(project.dir), id, run)
    if (slice.missing.length > 0) return null
    fingerprint ??= await projectFingerprint(project)
    const freshness = judgeFreshness(run, {...fingerprint, contractsHash: gateContext(project, slice).contractsHash})
    if (freshness.state === 'stale') return null
    slices[id] = run
  }
  if (Object.keys(slices).length === 0) return null
  return {...status, slices}
}

/** What the stop hook reads of a run, which the status file’s reader does not check. */
function checkRun(file: string, id: string, run: VerificationRun): void {
  const seen = run.verification_run as Partial<VerificationRun['verification_run']> | null | undefined
  const nullableText = (value: unknown) => value === null || typeof value === 'string'
  if (typeof seen !== 'object' || seen === null || typeof seen.contracts_hash !== 'string' || !nullableText(seen.git_head) || !nullableText(seen.worktree)) {
    throw new FileReadError(file, `Unexpected run for \`${id}\`, expected \`verification_run\` with \`contracts_hash\`, \`git_head\` and \`worktree\``)
  }
  for (const [index, result] of run.results.entries()) {
    const value = result as Partial<typeof result> | null
    if (typeof value !== 'object' || value === null || typeof value.criterion_id !== 'string' || typeof value.status !== 'string') {
      throw new FileReadError(file, `Unexpected result ${index + 1} of \`${id}\`, expected \`criterion_id\` and \`status\``)
    }
  }
}

function maxStopBlocks(): number {
  const value = process.env.TIERS_MAX_BLOCKS
  if (value === undefined || value === '') return defaultMaxStopBlocks
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new UserError(`Unexpected TIERS_MAX_BLOCKS \`${value}\`, expected a whole number of 1 or more`)
  return number
}

export const verdict: Command = async (input) => {
  const text = input.positionals.length === 0 || (input.positionals.length === 1 && input.positionals[0] === '-') ? await input.stdin() : input.positionals.join(' ')
  const parsed = parseVerdict(text)
  const jobStatus = toJobStatus(parsed.verdict)
  return {
    text: `${parsed.verdict} (job: ${jobStatus})${parsed.message ? `: ${parsed.message}` : ''}`,
    data: {verdict: parsed.verdict, message: parsed.message, isPass: isPass(parsed.verdict), isHardFail: isHardFail(parsed.verdict), jobStatus},
    warnings: [],
    exitCode: isPass(parsed.verdict) ? exitCodes.ok : exitCodes.user
  }
}
