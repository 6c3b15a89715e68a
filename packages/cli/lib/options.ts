/**
 * What is wrong with the options Node’s parser refused, found by reading the
 * arguments again as tokens: its messages run over several lines with
 * unbalanced quotes, and their wording is Node’s, not the tool’s.
 */
import {parseArgs} from 'node:util'
import type {ParseArgsConfig} from 'node:util'
import {optionHelp} from './commands/index.js'
import type {OptionHelp, OptionName} from './commands/index.js'
import type {OptionProblem} from './errors.js'

/** An option takes a value when its help shows one (`--dir <folder>`). */
const takesValue = (name: OptionName) => optionHelp[name].flag.includes('<')

/** Every option as Node's parser takes it: with its value, its one-letter form, any number of times. */
export const parserOptions: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  (Object.keys(optionHelp) as OptionName[]).map((name) => {
    const help: OptionHelp = optionHelp[name]
    return [name, {type: takesValue(name) ? 'string' : 'boolean', ...(help.short ? {short: help.short} : {})}]
  })
)

/** The first option problem in `argv`, and the command named (its first argument), if any. */
export function findOptionProblem(argv: readonly string[]): {problem: OptionProblem | null; command: string | null} {
  const {tokens} = parseArgs({args: [...argv], options: parserOptions, strict: false, allowPositionals: true, tokens: true})
  const command = tokens.find((token) => token.kind === 'positional')
  let problem: OptionProblem | null = null
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    if (!Object.hasOwn(optionHelp, token.name)) problem = {kind: 'unknown', flag: token.rawName}
    else if (!takesValue(token.name as OptionName)) problem = token.value === undefined ? null : {kind: 'needless-value', flag: token.rawName}
    else if (token.value === undefined) problem = {kind: 'missing-value', flag: token.rawName, usage: optionHelp[token.name as OptionName].flag}
    // Node takes `--dir -x` for a forgotten value, as `-x` could be an option; `--dir=-x` is a value.
    else if (!token.inlineValue && token.value.startsWith('-')) problem = {kind: 'option-like-value', flag: token.rawName, value: token.value}
    if (problem) break
  }
  return {problem, command: command?.kind === 'positional' ? command.value : null}
}
