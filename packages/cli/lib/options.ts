/**
 * What is wrong with the options Node’s parser refused, found by reading the
 * arguments again as tokens: its messages run over several lines with
 * unbalanced quotes, and their wording is Node’s, not the tool’s.
 */
import {findOptionProblemIn} from './command-args.js'
import type {OptionTable} from './command-args.js'
import {optionHelp} from './commands/index.js'
import type {OptionHelp, OptionName} from './commands/index.js'
import type {OptionProblem} from './errors.js'

/** The gate's options, as `parseArgs` reads them: with its value when its help shows one (`--dir <folder>`), its one-letter form. */
const gateOptions: OptionTable = {
  options: Object.fromEntries(
    (Object.keys(optionHelp) as OptionName[]).map((name) => {
      const help: OptionHelp = optionHelp[name]
      return [name, {type: help.flag.includes('<') ? 'string' : 'boolean', ...(help.short ? {short: help.short} : {})}]
    })
  ),
  usage: (name) => optionHelp[name as OptionName].flag
}

/** The first option problem in `argv` for the gate's commands, and the command named (its first argument), if any. */
export function findOptionProblem(argv: readonly string[]): {problem: OptionProblem | null; command: string | null} {
  return findOptionProblemIn(argv, gateOptions)
}
