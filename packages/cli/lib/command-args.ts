/**
 * What is wrong with the options Node’s parser refused, found by reading the
 * arguments again as tokens: its messages run over several lines with
 * unbalanced quotes, and their wording is Node’s, not the tool’s. The gate’s
 * commands read them with their table (`options.ts`); `tiers lint` and
 * `tiers init`, which have options of their own, with theirs.
 */
import {parseArgs} from 'node:util'
import type {ParseArgsConfig} from 'node:util'
import {optionsMessage, UserError} from './errors.js'
import type {OptionProblem} from './errors.js'

/** The options a command reads, as `parseArgs` takes them, and the usage of one that takes a value (`--dir <folder>`). */
export interface OptionTable {
  options: NonNullable<ParseArgsConfig['options']>
  usage: (name: string) => string
}

/** The first option problem in `argv` read with `table`, and the command named (its first argument), if any. */
export function findOptionProblemIn(argv: readonly string[], table: OptionTable): {problem: OptionProblem | null; command: string | null} {
  const {tokens} = parseArgs({args: [...argv], options: table.options, strict: false, allowPositionals: true, tokens: true})
  const command = tokens.find((token) => token.kind === 'positional')
  const takesValue = (name: string) => table.options[name]?.type === 'string'
  let problem: OptionProblem | null = null
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    if (!Object.hasOwn(table.options, token.name)) problem = {kind: 'unknown', flag: token.rawName}
    else if (!takesValue(token.name)) problem = token.value === undefined ? null : {kind: 'needless-value', flag: token.rawName}
    else if (token.value === undefined) problem = {kind: 'missing-value', flag: token.rawName, usage: table.usage(token.name)}
    // Node takes `--dir -x` for a forgotten value, as `-x` could be an option; `--dir=-x` is a value.
    else if (!token.inlineValue && token.value.startsWith('-')) problem = {kind: 'option-like-value', flag: token.rawName, value: token.value}
    if (problem) break
  }
  return {problem, command: command?.kind === 'positional' ? command.value : null}
}

/** `--frail, -q/--quiet, …`: the flags of a table, for a message. */
function flagList(options: OptionTable['options']): string {
  return Object.entries(options)
    .map(([name, option]) => (option.short ? `-${option.short}/--${name}` : `--${name}`))
    .join(', ')
}

/**
 * Strict `parseArgs` for a command with options of its own (`tiers lint`,
 * `tiers init`): an option it refuses is a `UserError` on one line, as the
 * gate’s commands say it, with the option meant when a known one is close.
 */
export function parseCommandArgs<const T extends ParseArgsConfig>(
  config: T,
  table: {command: string; usage: OptionTable['usage']}
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>(config)
  } catch (error) {
    const options = config.options ?? {}
    const {problem} = findOptionProblemIn(config.args ?? [], {options, usage: table.usage})
    throw new UserError(optionsMessage(error, {problem, accepted: flagList(options), names: Object.keys(options), help: `tiers ${table.command} --help`}))
  }
}
