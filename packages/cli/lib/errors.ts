import {expectedInstead} from './suggest.js'

export {firstLine, ProjectError, UserError} from '@verification-tiers/project/errors'

/** Exit codes of `tiers`: 1 for the caller’s mistakes and closed gates, 2 for broken project files and failures, 3 for a bug in tiers. */
export const exitCodes = {ok: 0, user: 1, broken: 2, internal: 3} as const

/**
 * Text from the command line as a message quotes it: in backticks, or as a
 * JSON string when it holds a line break, another control character or a
 * backtick, so the message stays one line and its quotes balance.
 */
export function quoteArgument(text: string): string {
  return /[\u0000-\u001f\u007f`]/.test(text) ? JSON.stringify(text) : `\`${text}\``
}

/** What is wrong with an option, as `findOptionProblem` finds it. */
export type OptionProblem =
  | {kind: 'unknown'; flag: string}
  | {kind: 'missing-value'; flag: string; usage: string}
  | {kind: 'option-like-value'; flag: string; value: string}
  | {kind: 'needless-value'; flag: string}

/** Where to look: the options the command takes, and its help (`tiers checkpoint --help`). */
export interface OptionsContext {
  accepted: string
  /** The names of the long options the command takes (`json`), which a mistyped one is compared with. */
  names: readonly string[]
  help: string
}

/**
 * A refused option in one line, in the tool’s words when `found` says what
 * is wrong: Node’s own messages run over several lines with unbalanced
 * quotes. Otherwise (a refusal the reading does not know) Node’s message, on
 * one line.
 */
export function optionsMessage(error: unknown, found?: OptionsContext & {problem: OptionProblem | null}): string {
  const nodeMessage = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')
  if (!found) return nodeMessage
  const {problem, accepted, names, help} = found
  const see = `(see ${help})`
  if (!problem) return `${nodeMessage} ${see}`
  switch (problem.kind) {
    case 'unknown':
      // A short flag (`-x`) is one letter: any other is as near.
      return `Unexpected option ${quoteArgument(problem.flag)}, expected ${problem.flag.startsWith('--') ? expectedInstead(problem.flag.slice(2), names, (name) => quoteArgument(`--${name}`), `one of ${accepted}`) : `one of ${accepted}`} ${see}`
    case 'missing-value':
      return `Unexpected \`${problem.flag}\` without a value, expected \`${problem.usage}\` ${see}`
    case 'option-like-value':
      return `Unexpected ${quoteArgument(problem.flag)} followed by ${quoteArgument(problem.value)}, expected a value after it, or ${quoteArgument(`${problem.flag}=${problem.value}`)} if ${quoteArgument(problem.value)} is the value ${see}`
    case 'needless-value':
      return `Unexpected value for \`${problem.flag}\`, expected \`${problem.flag}\` alone ${see}`
  }
}
