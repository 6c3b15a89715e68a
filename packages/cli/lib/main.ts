import {readFile} from 'node:fs/promises'
import {parseArgs} from 'node:util'
import {InterruptedError} from '@verification-tiers/evidence/interrupted'
import {ConcurrentChangeError, GateError} from '@verification-tiers/runtime/errors'
import {commands, findCommand, globalOptions, separateCommands} from './commands/index.js'
import type {CommandSpec, OptionName} from './commands/index.js'
import {exitCodes, firstLine, optionsMessage, quoteArgument, UserError} from './errors.js'
import {commandHelp, commandsTaking, flagList, globalHelp, optionsOf} from './help.js'
import {findOptionProblem} from './options.js'
import {printable, printableJson} from './printable.js'
import {readInput, readLine} from './stdin.js'
import {expectedInstead} from './suggest.js'
import type {ReadInput, ReadLine} from './stdin.js'

/** `tiers --help`: the commands, the options and the exit codes. */
export const usage = globalHelp()

/** Output streams, so tests and callers can capture them. */
export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Standard input, read up to a limit (default: the process’s). */
  stdin?: ReadInput
  /** Text for stderr as it is, without a line ending added (default: `stderr` without its last line ending). */
  report?: (text: string) => void
  /** Text for stdout as it is, without a line ending added (default: `stdout` without its last line ending). */
  write?: (text: string) => void
  /**
   * Which streams are a terminal (default: none): text for a person (the
   * status table, verify's progress) goes only there; pipes and files get
   * plain, stable lines. An approval or an escalation choice is taken only
   * when standard input is one (`stdin`), as a person at a terminal has.
   */
  terminal?: {stdout: {columns: number} | null; stderr: boolean; stdin?: boolean}
  /** One line typed at the terminal, for `tiers review` (default: read from standard input). */
  readLine?: ReadLine
}

/** `--timeout`: the model’s rule for check timeouts loads only when one is given. */
async function parseTimeout(value: string | undefined): Promise<number | null> {
  if (value === undefined) return null
  const {checkTimeoutRule, isCheckTimeout} = await import('@verification-tiers/contracts/gate-terms')
  const seconds = Number(value)
  // Beyond a day Node’s timers overflow and fire at once: every check would time out.
  if (value.trim() === '' || !isCheckTimeout(seconds)) throw new UserError(`Unexpected \`--timeout ${value}\`, expected ${checkTimeoutRule}`)
  return seconds
}

/** `--env-allow A,B --env-allow C`: the variable names, or `null` (the whole environment) when not given. */
function parseEnvAllow(values: readonly string[] | undefined): string[] | null {
  if (values === undefined) return null
  const names = values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const bad = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
  if (bad !== undefined) throw new UserError(`Unexpected \`${bad}\` in \`--env-allow\`, expected variable names separated by commas, such as \`CI,NODE_ENV\``)
  return names
}

/** Run `tiers`; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  // `lint` takes the remark CLI’s options, not the gate’s; loaded only when asked
  // for, so the gate’s commands start without the remark engine.
  if (argv[0] === 'lint') {
    const {lintCommand} = await import('./commands/lint-command.js')
    return lintCommand(argv.slice(1), {
      ...io,
      report: io.report ?? ((text) => io.stderr(text.replace(/\n$/, ''))),
      write: io.write ?? ((text) => io.stdout(text.replace(/\n$/, '')))
    })
  }
  // `init` writes configuration files, not the project’s state: its own options.
  if (argv[0] === 'init') {
    const {runInit} = await import('./commands/init.js')
    return runInit(argv.slice(1), io)
  }
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        dir: {type: 'string'},
        json: {type: 'boolean', default: false},
        yaml: {type: 'boolean', default: false},
        detail: {type: 'string'},
        timeout: {type: 'string'},
        'env-allow': {type: 'string', multiple: true},
        slice: {type: 'string'},
        all: {type: 'boolean', default: false},
        undo: {type: 'boolean', default: false},
        base: {type: 'string'},
        agent: {type: 'string'},
        help: {type: 'boolean', short: 'h', default: false},
        version: {type: 'boolean', short: 'v', default: false},
        debug: {type: 'boolean', default: false}
      }
    })
  } catch (error) {
    const {problem, command} = findOptionProblem(argv)
    const spec = command === null ? undefined : findCommand(command)
    const help = spec || isSeparate(command) ? `tiers ${command} --help` : 'tiers --help'
    io.stderr(`tiers: ${optionsMessage(error, {problem, accepted: flagList(optionsOf(spec)), names: optionsOf(spec), help})}`)
    return exitCodes.user
  }
  const {values, positionals} = parsed
  // As npm and git: the version alone, whatever else is given, so scripts can read it.
  if (values.version) {
    io.stdout(await cliVersion())
    return exitCodes.ok
  }
  const [name, ...rest] = positionals
  if (!name) {
    if (values.help) {
      io.stdout(usage)
      return exitCodes.ok
    }
    // An error as every other is: one line, in the same form, naming where the help is.
    io.stderr(`tiers: Unexpected missing command, expected one of: ${commandNames().join(', ')} (see tiers --help)`)
    return exitCodes.user
  }
  // `tiers help [command]` is `tiers [command] --help`.
  if (name === 'help' || values.help) return showHelp(name === 'help' ? rest : [name], io)
  const command = findCommand(name)
  const format = values.json ? 'json' : values.yaml ? 'yaml' : 'text'
  try {
    if (!command) throw unknownCommand(name)
    checkArguments(command, rest)
    checkOptions(name, command, values)
    const result = await command.run({
      dir: values.dir ?? null,
      positionals: rest,
      detail: values.detail ?? null,
      timeout: await parseTimeout(values.timeout),
      envAllow: parseEnvAllow(values['env-allow']),
      slice: values.slice ?? null,
      all: values.all,
      undo: values.undo,
      base: values.base ?? null,
      agent: values.agent ?? null,
      format,
      terminal: format === 'text' ? (io.terminal?.stdout ?? null) : null,
      progress: io.terminal?.stderr ? (line) => io.stderr(printable(line)) : null,
      stdin: io.stdin ?? ((limitBytes) => readInput(limitBytes)),
      stdinTerminal: io.terminal?.stdin ?? false,
      // The question goes where text for a person goes: stdout, unless it holds JSON or YAML.
      ask: async (question) => {
        const show = format === 'text' ? (io.write ?? io.stdout) : (io.report ?? io.stderr)
        show(printable(question))
        return (io.readLine ?? (() => readLine()))()
      }
    })
    for (const warning of result.warnings) io.stderr(printable(`tiers: warning: ${warning}`))
    // A command whose data has its own `warnings` (report) keeps them in the JSON.
    const warnings = 'warnings' in result.data ? result.data.warnings : result.warnings
    const data = {...result.data, warnings}
    // The stop hook speaks its protocol’s JSON, whatever the format asked.
    // User-written text never reaches the terminal with its control characters (see `printable`).
    if (result.raw) io.stdout(printableJson(JSON.stringify(result.data)))
    else if (format === 'json') io.stdout(printableJson(JSON.stringify(data, null, 2)))
    else if (format === 'yaml') io.stdout(await toYaml(data))
    else io.stdout(printable(result.text))
    return result.exitCode ?? exitCodes.ok
  } catch (error) {
    const exitCode = exitCodeOf(error)
    const message =
      exitCode === exitCodes.internal
        ? `internal error: ${firstLine(error)} (a bug in tiers: run it again with --debug for the stack, and report it)`
        : firstLine(error)
    // Asked for JSON or YAML, the error is said there, once: stdout is what a program reads, and a line on stderr beside it would say it twice.
    if (format === 'text') io.stderr(printable(`tiers: ${message}`))
    if (values.debug || debugAsked()) io.stderr(error instanceof Error && error.stack ? error.stack : String(error))
    if (format === 'json') io.stdout(printableJson(JSON.stringify({error: {code: exitCode, message}}, null, 2)))
    else if (format === 'yaml') io.stdout(await toYaml({error: {code: exitCode, message}}))
    return exitCode
  }
}

/** The version of this package, as its `package.json` (published beside `dist/`) says. */
async function cliVersion(): Promise<string> {
  const {version} = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string}
  return version
}

/** `--yaml` output; the YAML library loads only when asked for, as most runs print text or JSON. */
async function toYaml(value: unknown): Promise<string> {
  const {stringify} = await import('yaml')
  return stringify(value).replace(/\n$/, '')
}

function exitCodeOf(error: unknown): number {
  if (error instanceof InterruptedError) return error.exitCode
  // Another `tiers` changed the file meanwhile: nothing was written, and running it again is enough.
  if (error instanceof UserError || error instanceof GateError || error instanceof ConcurrentChangeError) return exitCodes.user
  // Every package’s error about a file names it (`file`: ProjectError, FileReadError, FileWriteError, …): a file that cannot be used, not a bug.
  if (error instanceof Error && typeof (error as {file?: unknown}).file === 'string') return exitCodes.broken
  // The system refused (a file, a process): the machine’s state, named by its code, not a bug.
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') return exitCodes.broken
  return exitCodes.internal
}

/** `DEBUG=tiers` (or `*`, or a list holding either), as the `debug` package reads it. */
function debugAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.DEBUG ?? '').split(/[\s,]+/).some((name) => name === '*' || name === 'tiers' || name === 'tiers:*')
}

/** Every command, the gate’s and the separate ones, in help order. */
function commandNames(): string[] {
  return [...Object.keys(commands), ...separateCommands.map((command) => command.name)]
}

/** `lint` runs before the gate’s options are parsed, but it is a command all the same. */
function unknownCommand(name: string): UserError {
  const names = commandNames()
  return new UserError(
    `Unexpected command ${quoteArgument(name)}, expected ${expectedInstead(name, [...names, 'help'], quoteArgument, `one of: ${names.join(', ')}`)}`
  )
}

function isSeparate(name: string | null): name is string {
  return separateCommands.some((command) => command.name === name)
}

/** `tiers help [command]`, `tiers <command> --help`: the help on stdout; an unknown command is an error. */
async function showHelp(args: readonly string[], io: Io): Promise<number> {
  const [name, ...extra] = args
  if (extra.length > 0) {
    io.stderr(`tiers: ${extraArguments(extra, 'help [command]')}`)
    return exitCodes.user
  }
  if (name === undefined || name === 'help') {
    io.stdout(usage)
    return exitCodes.ok
  }
  if (isSeparate(name)) return main([name, '--help'], io)
  const command = findCommand(name)
  if (!command) {
    io.stderr(`tiers: ${unknownCommand(name).message}`)
    return exitCodes.user
  }
  io.stdout(commandHelp(command))
  return exitCodes.ok
}

/** Too few arguments, or more than the command reads (which would be ignored without a word). */
function checkArguments(command: CommandSpec, args: readonly string[]): void {
  if (args.length > command.args.max) throw new UserError(extraArguments(args.slice(command.args.max), command.usage))
  if (args.length < command.args.min) throw new UserError(`Unexpected arguments, expected \`tiers ${command.usage}\``)
}

function extraArguments(extra: readonly string[], usage: string): string {
  const shown = extra.map(quoteArgument).join(', ')
  return `Unexpected extra argument${extra.length === 1 ? '' : 's'} ${shown}, expected \`tiers ${usage}\``
}

/** An option of another command, which this one would ignore without a word. */
function checkOptions(name: string, command: CommandSpec, values: Record<string, unknown>): void {
  for (const option of Object.keys(values) as OptionName[]) {
    const given = values[option] !== undefined && values[option] !== false
    // `--debug` changes only what a bug prints, with any command.
    if (!given || option === 'debug' || (globalOptions as readonly string[]).includes(option) || command.options.includes(option)) continue
    throw new UserError(`Unexpected \`--${option}\` with \`tiers ${name}\`, expected it only with ${commandsTaking(option)}`)
  }
}
