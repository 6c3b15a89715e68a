import {defaultLintCachePath, lintFiles, lintFormats, writeReport} from '@verification-tiers/lint'
import type {LintFormat, LintSettings} from '@verification-tiers/lint'
import {parseCommandArgs} from '../command-args.js'
import {exitCodes, firstLine, UserError} from '../errors.js'

export const lintUsage = `Usage: tiers lint [paths…] [options]

Lint markdown as \`remark\` does: the same engine, files, .remarkrc and
.remarkignore, the same messages and report. Paths default to \`.\`
(standard input is not read). Where no configuration is found,
remark-preset-lint-verification-tiers runs. Adds what CI needs: annotations,
fixes and a cache.

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
  --format <name>          stylish (default: the remark report, on stderr),
                           github (the default under GitHub Actions), sarif,
                           junit or json; all but stylish print on stdout
  --output-file <file>     write the report to this file instead (its folder
                           is created; the file is replaced whole, never half
                           written); the exit code is the same
  --fix                    apply each message's single expected value at its
                           place, print what changed, then report what is left
  --fix-dry-run            print the fixes as a unified diff; change nothing
  --cache                  skip files unchanged since they were linted (their
                           messages are shown again), kept in ${defaultLintCachePath}
  --cache-location <file>  keep the cache in this file (implies --cache)
  -h, --help               show this help

Exit codes: 0 no errors (no warnings with --frail); 1 errors (or warnings
with --frail; a bad configuration or plugin is an error in each file, as in
remark), or a bad option; 2 the lint could not run at all, or its report
could not be written.`

function parseFormat(value: string | undefined, env: NodeJS.ProcessEnv): LintFormat {
  if (value === undefined) return env.GITHUB_ACTIONS === 'true' ? 'github' : 'stylish'
  if (!(lintFormats as readonly string[]).includes(value)) throw new UserError(`Unexpected \`--format ${value}\`, expected one of ${lintFormats.join(', ')}`)
  return value as LintFormat
}

/** Read `tiers lint`’s arguments into settings; `null` for `--help`. */
export function parseLintArgs(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): LintSettings | null {
  const parsed = parseCommandArgs({
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
      format: {type: 'string'},
      'output-file': {type: 'string'},
      fix: {type: 'boolean', default: false},
      'fix-dry-run': {type: 'boolean', default: false},
      cache: {type: 'boolean', default: false},
      'cache-location': {type: 'string'},
      help: {type: 'boolean', short: 'h', default: false}
    }
  })
  const {values, positionals} = parsed
  if (values.help) return null
  const format = parseFormat(values.format, env)
  if (values['output-file'] === '') throw new UserError('Unexpected empty `--output-file`, expected a file name')
  // A diff on stdout would corrupt a report that is there too.
  if (values['fix-dry-run'] && format !== 'stylish' && values['output-file'] === undefined) throw new UserError(`Unexpected \`--fix-dry-run\` with \`--format ${format}\`, expected one of them`)
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
    format,
    outputFile: values['output-file'],
    fix: values.fix,
    fixDryRun: values['fix-dry-run'],
    cache: values['cache-location'] ?? (values.cache ? defaultLintCachePath : undefined)
  }
}

/** Output of `tiers lint`: the report goes to stderr as is, like remark’s. */
export interface LintIo {
  stdout: (text: string) => void
  /** Writes `text` to stderr without adding a line ending. */
  report: (text: string) => void
  /** Writes `text` to stdout without adding a line ending. */
  write: (text: string) => void
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
    const result = await lintFiles(settings, io.stderr)
    if (result.diff) io.stdout(result.diff.replace(/\n$/, ''))
    if (settings.outputFile !== undefined) {
      try {
        await writeReport(settings.outputFile, result.report.text, settings.cwd)
      } catch (error) {
        io.stderr(`tiers: ${firstLine(error)}`)
        return exitCodes.broken
      }
    } else if (result.report.text) (result.report.stream === 'stderr' ? io.report : io.write)(result.report.text)
    return result.code
  } catch (error) {
    io.stderr(`tiers lint: ${firstLine(error)}`)
    return exitCodes.broken
  }
}
