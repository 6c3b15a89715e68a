import {parseArgs} from 'node:util'
import {lintFiles} from '../lint/run.js'
import type {LintSettings} from '../lint/settings.js'
import {exitCodes, firstLine, optionsMessage, UserError} from '../errors.js'

export const lintUsage = `Usage: tiers lint [paths…] [options]

Lint markdown as \`remark\` does — the same files, .remarkrc and
.remarkignore, the same messages and report — on every core. Paths default
to \`.\` (standard input is not read). Where no configuration is found,
remark-preset-lint-verification-tiers runs.

Options:
  --frail                  exit 1 on warnings too
  -q, --quiet              leave files without messages out of the report
  -S, --silent             report only errors
  --no-color               no ANSI colours in the report
  --no-config              do not search for configuration files
  --no-ignore              do not search for .remarkignore
  --rc-path <file>         use this configuration file
  --ignore-path <file>     use this ignore file
  --ignore-pattern <glob>  ignore these files too (repeatable)
  --threads <n>            threads to lint on (default: one per core from 4 MB
                           of markdown, else 1; 1: no workers)
  -h, --help               show this help

Exit codes: 0 no errors (no warnings with --frail); 1 errors (or warnings
with --frail; a bad configuration or plugin is an error in each file, as in
remark), or a bad option; 2 the lint could not run at all.`

function parseThreads(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const threads = Number(value)
  if (value.trim() === '' || !Number.isInteger(threads) || threads < 0) throw new UserError(`Unexpected \`--threads ${value}\`, expected a whole number of 0 or more`)
  return threads
}

/** Read `tiers lint`’s arguments into settings; `null` for `--help`. */
export function parseLintArgs(argv: readonly string[], cwd: string): LintSettings | null {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        frail: {type: 'boolean', default: false},
        quiet: {type: 'boolean', short: 'q', default: false},
        silent: {type: 'boolean', short: 'S', default: false},
        color: {type: 'boolean', default: false},
        'no-color': {type: 'boolean', default: false},
        'no-config': {type: 'boolean', default: false},
        'no-ignore': {type: 'boolean', default: false},
        'rc-path': {type: 'string'},
        'ignore-path': {type: 'string'},
        'ignore-pattern': {type: 'string', multiple: true, default: []},
        threads: {type: 'string'},
        help: {type: 'boolean', short: 'h', default: false}
      }
    })
  } catch (error) {
    throw new UserError(optionsMessage(error))
  }
  const {values, positionals} = parsed
  if (values.help) return null
  return {
    cwd,
    files: positionals.length > 0 ? positionals : ['.'],
    frail: values.frail,
    quiet: values.quiet,
    silent: values.silent,
    // Colour is on unless turned off; the last of --color and --no-color wins, as in the remark CLI.
    color: argv.filter((argument) => argument === '--color' || argument === '--no-color').at(-1) !== '--no-color',
    detectConfig: !values['no-config'],
    detectIgnore: !values['no-ignore'],
    rcPath: values['rc-path'],
    ignorePath: values['ignore-path'],
    ignorePatterns: values['ignore-pattern'].flatMap((pattern) => pattern.split(',')),
    threads: parseThreads(values.threads)
  }
}

/** Output of `tiers lint`: the report goes to stderr as is, like remark’s. */
export interface LintIo {
  stdout: (text: string) => void
  /** Writes `text` without adding a line ending. */
  report: (text: string) => void
  stderr: (text: string) => void
}

/** Run `tiers lint`; resolves to the exit code. */
export async function runLint(argv: readonly string[], io: LintIo, cwd: string = process.cwd()): Promise<number> {
  let settings
  try {
    settings = parseLintArgs(argv, cwd)
  } catch (error) {
    io.stderr(`tiers lint: ${firstLine(error)}`)
    return exitCodes.user
  }
  if (!settings) {
    io.stdout(lintUsage)
    return exitCodes.ok
  }
  try {
    const result = await lintFiles(settings)
    if (result.report) io.report(result.report)
    return result.code
  } catch (error) {
    io.stderr(`tiers lint: ${firstLine(error)}`)
    return exitCodes.broken
  }
}
