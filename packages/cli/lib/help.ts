/**
 * The help of `tiers` and of each of its commands, written from the
 * `commands` table: a command’s usage, options and exit codes are said once,
 * there, and every help and argument error reads them from it.
 */
import {commands, globalOptions, optionHelp, separateCommands} from './commands/index.js'
import type {CommandSpec, OptionHelp, OptionName} from './commands/index.js'
import {wrap} from './text-width.js'

const allOptions = Object.keys(optionHelp) as OptionName[]

/** The options `spec` takes, in help order: its own and the global ones. */
export function optionsOf(spec: CommandSpec | undefined): OptionName[] {
  if (!spec) return allOptions
  return allOptions.filter((name) => (globalOptions as readonly string[]).includes(name) || spec.options.includes(name))
}

/** `--dir, --json, --yaml, -h/--help`: the flags of `names`, for a message. */
export function flagList(names: readonly OptionName[]): string {
  return names
    .map((name) => {
      const {short}: OptionHelp = optionHelp[name]
      return short ? `-${short}/--${name}` : `--${name}`
    })
    .join(', ')
}

/** The commands that take option `name`, for a message: `tiers verify` or `tiers contracts`. */
export function commandsTaking(name: OptionName): string {
  return Object.entries(commands)
    .filter(([, spec]) => spec.options.includes(name))
    .map(([command]) => `\`tiers ${command}\``)
    .join(' or ')
}

function optionLines(names: readonly OptionName[]): string {
  return names.map((name) => wrap(`  ${optionHelp[name].flag.padEnd(17)} ${optionHelp[name].text}`, ' '.repeat(20))).join('\n')
}

/** `tiers --help`. */
export function globalHelp(): string {
  const rows = [...Object.values(commands), ...separateCommands, {usage: 'help [command]', summary: 'a command’s usage, options and exit codes'}]
  // Every summary in one column, two spaces after the longest usage.
  const width = rows.reduce((widest, row) => Math.max(widest, row.usage.length), 0)
  return `Usage: tiers <command> [options]

Commands:
${rows.map((row) => `  ${row.usage.padEnd(width)}  ${row.summary}`).join('\n')}

Options:
${optionLines(allOptions)}

\`tiers <command> --help\` (or \`tiers help <command>\`) shows a command’s usage,
options and exit codes.

Exit codes: 0 done; 1 a usage error (unknown slice, bad choice), a failed check
or a closed gate (checkpoint without fresh passing verification); 2 a broken file;
3 a bug in tiers (\`--debug\` prints its stack).`
}

/** `tiers <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  return `Usage: tiers ${spec.usage}

${spec.description
  .split('\n')
  .map((line) => wrap(line, ''))
  .join('\n')}

Options:
${optionLines(optionsOf(spec))}

Exit codes:
${Object.entries({...spec.exitCodes, 3: 'a bug in tiers (`--debug` prints its stack)'})
  .map(([code, meaning]) => wrap(`  ${code.padEnd(4)} ${meaning}`, '       '))
  .join('\n')}`
}
