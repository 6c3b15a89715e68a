import {stat} from 'node:fs/promises'
import path from 'node:path'
import {answerStopHook} from '@verification-tiers/evidence/gate'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol/vocabulary'
import {describeJsonError, isSessionId, sessionIdRule} from '@verification-tiers/runtime'
import {agentOfInput, hookAgent, unknownAgent} from '@verification-tiers/setup/agents'
import type {HookAgent, HookAnswer} from '@verification-tiers/setup/agents'
import {firstLine, UserError} from '../errors.js'
import {InputTooLargeError, stopReadingInput} from '../stdin.js'
import type {ReadInput} from '../stdin.js'
import type {Command} from './shared.js'
import {invokedAs} from '../invoked-as.js'

/** How long the stop hook waits for the end of its input, and how much of it it takes. */
const stopHookInputLimits = {seconds: 5, bytes: 1024 * 1024}

/**
 * Answer a coding agent’s Stop hook, in the protocol of the agent
 * (`hookAgents`: named by `--agent`, else known from its input): its
 * session and project read from its fields and variables, the decision the
 * same for every agent, put in the agent’s words. Whatever goes wrong with
 * the project or tiers’ own files, it answers with one JSON object and exit
 * 0: an agent reads exit 2 as a block, which no safety valve could ever end.
 * A problem blocks, naming the file, under the safety valve; when even the
 * blocks cannot be counted, the agent may stop, with a warning. The valve
 * opens where the agent’s own loop guard would end the blocks (never
 * before it), or after `TIERS_MAX_BLOCKS` for an agent without one or when
 * it is set. Only its caller’s mistakes (input that is not a JSON object, a
 * bad `TIERS_MAX_BLOCKS`, session id or `--agent`) exit 1, which no agent
 * reads as a block.
 */
export const stopHook: Command = async (input) => {
  const named = input.agent ? namedAgent(input.agent) : null
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
  const hook = value as Record<string, unknown>
  const agent = named ?? agentOfInput(hook)
  const max = maxStopBlocks(agent)
  const given = hook[agent.session]
  const session = typeof given === 'string' && given !== '' ? given : 'default'
  if (!isSessionId(session))
    throw new UserError(`Unexpected \`${agent.session}\` ${JSON.stringify(session)} in the stop hook’s input, expected ${sessionIdRule}`)
  // `--dir` names the project outright, and alone.
  const from = input.dir === null ? await startingFolders(agent.cwd(hook), agent.projectVariables, warnings) : []
  const command = invokedAs(process.argv[1] ?? '', from[0] ?? process.cwd())
  const output = await answerStopHook({dir: input.dir, from, session, maxBlocks: max, command, onWarning: (warning) => warnings.push(warning)})
  const said: HookAnswer =
    output.decision === 'block' ? {decision: 'block', reason: output.reason ?? ''} : {decision: 'allow', message: output.systemMessage ?? null}
  const answer = agent.answer(said)
  // What the agent has no field for is said to the person on stderr.
  if (answer.stderr !== null) warnings.push(answer.stderr)
  return {text: JSON.stringify(answer.stdout), data: answer.stdout, warnings, raw: true}
}

/** The agent `--agent` names. */
function namedAgent(id: string): HookAgent {
  const agent = hookAgent(id)
  if (agent === null) throw new UserError(unknownAgent(id))
  return agent
}

/**
 * The hook’s input: standard input, given `stopHookInputLimits.seconds` to
 * end, and read up to `stopHookInputLimits.bytes` and no further. Input that
 * does not end in time, cannot be read or is too large is read as empty
 * input (so `session_id` `default` and no `cwd`), with a
 * warning; reading stops there, so nothing more is held and the process ends
 * with its answer.
 */
async function readHookInput(read: ReadInput): Promise<{text: string; warnings: string[]}> {
  const {seconds, bytes} = stopHookInputLimits
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, seconds * 1000, null)
  })
  const reading = read(bytes)
  // A read that fails after the time limit has nothing left to tell.
  reading.catch(() => {})
  let text: string | null
  try {
    text = await Promise.race([reading, late])
  } catch (error) {
    stopReadingInput()
    if (error instanceof InputTooLargeError) {
      return {text: '', warnings: [`Unexpected stop-hook input of more than ${bytes} bytes, expected at most ${bytes} bytes; read as empty input`]}
    }
    return {text: '', warnings: [`Unexpected error reading the stop hook’s input (${firstLine(error)}), expected its JSON; read as empty input`]}
  } finally {
    clearTimeout(timer)
  }
  if (text === null) {
    // The answer is due: the input is read no further.
    stopReadingInput()
    return {
      text: '',
      warnings: [`Unexpected standard input still open after ${seconds} s, expected the stop hook’s JSON and the end of its input; read as empty input`]
    }
  }
  // Editors and some shells write a byte order mark first; it is not JSON, nor a reason to refuse.
  return {text: text.replace(/^\uFEFF/, ''), warnings: []}
}

/**
 * Where the project is looked for, each folder upward as git finds `.git`:
 * the input’s `cwd` (where the agent works; relative to the working folder),
 * the agent’s project folder (`variables` its agent sets for hooks, such
 * as `CLAUDE_PROJECT_DIR`) and the hook’s own
 * working folder. They can disagree: an agent working in the system’s temp
 * folder, or a `cwd` of `..`, still has its project, and the hook judges
 * every project any of them names. A variable that names no folder is left
 * out, with a warning: walking up from it would find some project around
 * it, not the agent’s. A `cwd` that names none is looked up from, as every
 * command does (the agent may have removed the folder it works in).
 */
async function startingFolders(cwd: unknown, variables: readonly string[], warnings: string[]): Promise<string[]> {
  const own = workingFolder()
  const resolve = (folder: string) => (path.isAbsolute(folder) ? path.resolve(folder) : own === null ? null : path.resolve(own, folder))
  const from: string[] = []
  const given = typeof cwd === 'string' && cwd !== '' ? resolve(cwd) : null
  if (given !== null) from.push(given)
  for (const projectVariable of variables) {
    const variable = process.env[projectVariable]
    if (variable === undefined || variable === '') continue
    const folder = resolve(variable)
    const problem = folder === null ? 'relative, and the working folder is gone' : await notAFolder(folder)
    if (folder !== null && problem === null) from.push(folder)
    else
      warnings.push(
        `Unexpected ${projectVariable} ${JSON.stringify(variable)} (${problem}), expected the agent’s project folder; the stop hook looks for the project without it`
      )
  }
  if (own !== null) from.push(own)
  return from
}

/** Why `folder` is no folder to look from, or `null` when it is one. */
async function notAFolder(folder: string): Promise<string | null> {
  try {
    return (await stat(folder)).isDirectory() ? null : 'not a folder'
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'no such folder' : `cannot be read: ${firstLine(error)}`
  }
}

/** The process’s working folder, or `null` when it is gone (removed while the agent worked in it). */
function workingFolder(): string | null {
  try {
    return process.cwd()
  } catch {
    return null
  }
}

/**
 * Blocks in a row after which the safety valve lets the agent stop:
 * `TIERS_MAX_BLOCKS` when it is set, else where the agent’s own loop guard
 * ends them (so the valve never opens before it), else 5.
 */
function maxStopBlocks(agent: HookAgent): number {
  const value = process.env.TIERS_MAX_BLOCKS
  if (value === undefined || value === '') return agent.loopGuard(process.env) ?? defaultMaxStopBlocks
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new UserError(`Unexpected TIERS_MAX_BLOCKS \`${value}\`, expected a whole number of 1 or more`)
  return number
}
