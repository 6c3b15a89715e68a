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

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const rows = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}

/** The known long option closest to a mistyped `--flag`, when one is near enough to be meant; `undefined` otherwise. */
export function closestOption(flag: string, names: readonly string[]): string | undefined {
  if (!flag.startsWith('--')) return undefined
  const typed = flag.slice(2).replace(/=.*$/s, '').toLowerCase()
  let best: {name: string; edits: number} | undefined
  for (const name of names) {
    const edits = distance(typed, name)
    if (edits < (best?.edits ?? Infinity)) best = {name, edits}
  }
  // One edit in a short name, two in a longer one: beyond that a guess is as likely wrong as right.
  return best && best.edits <= (best.name.length > 5 ? 2 : 1) ? `--${best.name}` : undefined
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
export function parseCommandArgs<const T extends ParseArgsConfig>(config: T, table: {command: string; usage: OptionTable['usage']}): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>(config)
  } catch (error) {
    const options = config.options ?? {}
    let {problem} = findOptionProblemIn(config.args ?? [], {options, usage: table.usage})
    if (problem?.kind === 'unknown') {
      const suggestion = closestOption(problem.flag, Object.keys(options))
      if (suggestion) problem = {...problem, suggestion}
    }
    throw new UserError(optionsMessage(error, {problem, accepted: flagList(options), help: `tiers ${table.command} --help`}))
  }
}
