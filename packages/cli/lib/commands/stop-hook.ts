import path from 'node:path'
import {answerStopHook} from '@verification-tiers/evidence/gate'
import {defaultMaxStopBlocks} from '@verification-tiers/protocol/vocabulary'
import {describeJsonError, isSessionId, sessionIdRule} from '@verification-tiers/runtime'
import {firstLine, UserError} from '../errors.js'
import {InputTooLargeError, stopReadingInput} from '../stdin.js'
import type {ReadInput} from '../stdin.js'
import type {Command} from './shared.js'

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
  // The project is found from where the agent works upward, as git finds `.git`; `--dir` names it outright.
  const cwd = typeof hook.cwd === 'string' && hook.cwd !== '' ? path.resolve(hook.cwd) : process.cwd()
  const session = typeof hook.session_id === 'string' && hook.session_id !== '' ? hook.session_id : 'default'
  if (!isSessionId(session)) throw new UserError(`Unexpected \`session_id\` ${JSON.stringify(session)} in the stop hook’s input, expected ${sessionIdRule}`)
  const output = await answerStopHook({dir: input.dir, cwd, session, maxBlocks: max, onWarning: (warning) => warnings.push(warning)})
  return {text: JSON.stringify(output), data: output, warnings, raw: true}
}

/**
 * The hook’s input: standard input, given `stopHookInputLimits.seconds` to
 * end, and read up to `stopHookInputLimits.bytes` and no further. Input that
 * does not end in time, cannot be read or is too large is read as empty
 * input (so `session_id` `default` and the working directory), with a
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
    return {text: '', warnings: [`Unexpected standard input still open after ${seconds} s, expected the stop hook’s JSON and the end of its input; read as empty input`]}
  }
  // Editors and some shells write a byte order mark first; it is not JSON, nor a reason to refuse.
  return {text: text.replace(/^\uFEFF/, ''), warnings: []}
}

function maxStopBlocks(): number {
  const value = process.env.TIERS_MAX_BLOCKS
  if (value === undefined || value === '') return defaultMaxStopBlocks
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new UserError(`Unexpected TIERS_MAX_BLOCKS \`${value}\`, expected a whole number of 1 or more`)
  return number
}
