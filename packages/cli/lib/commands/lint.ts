import {defaultLintBaselinePath, defaultLintCachePath} from '@verification-tiers/lint/replay'
import type {LintOutput, LintSettings} from '@verification-tiers/lint/replay'
import type {LintResult} from '@verification-tiers/lint/run'
import {parseCommandArgs} from '../command-args.js'
import {exitCodes, firstLine, UserError} from '../errors.js'
import {shellQuote} from '../shell.js'
import {counted} from '../words.js'
import {LintArgsError, lintOptions, lintSettingsOf, printLintOutput, processTerminal, programFolder} from './lint-replay.js'
import type {LintTerminal} from './lint-replay.js'

export type {LintTerminal} from './lint-replay.js'

export const lintUsage = `Usage: tiers lint [paths…] [options]

Lint markdown as \`remark\` does: the same engine, files, .remarkrc and
.remarkignore, the same messages. Paths default to \`.\` (standard input is
not read). Where no configuration is found,
remark-preset-lint-verification-tiers runs. Adds what CI needs: annotations,
fixes, a cache and a baseline.

Options:
  --frail                  exit 1 on warnings too
  --max-warnings <n>       exit 1 when more than n warnings are left
  --list-clean             list files without messages too (left out of the
                           stylish report by default; -q, --quiet leaves them
                           out of every format)
  -S, --silent             report only errors
  --color, --no-color      ANSI colours in the report, or none (default: only
                           when the report goes to a terminal and NO_COLOR is
                           not set; FORCE_COLOR forces them)
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
                           messages are shown again), kept in tiers/.lint-cache
                           of the project folder here (.greenlight, specs,
                           openspec, .kiro, .planning, _bmad-output or
                           .bmad-core;
                           ${defaultLintCachePath}
                           when there is none)
  --cache-location <file>  keep the cache in this file (implies --cache)
  --update-baseline        accept the warnings found now: write them to the
                           baseline (its entries for files not linted now are
                           kept), then report
  --baseline <file>        the baseline to read and write (default:
                           ${defaultLintBaselinePath}); it must exist unless
                           --update-baseline writes it
  --no-baseline            read no baseline: report every warning
  -h, --help               show this help

Baseline: when ${defaultLintBaselinePath} exists (or --baseline names one), the
warnings it lists (by file, rule and message, as many as it counts; never an
error) are left out of the report and of the exit code; a warning beyond them
is reported. The baseline's paths are from its own folder.

Exit codes: 0 no errors (no warnings with --frail, at most n with
--max-warnings); 1 errors (or warnings with --frail, more than n with
--max-warnings; a bad configuration or plugin is an error in each file, as in
remark), or a bad option; 2 the lint could not run at all (a baseline that is
not valid is one), or its report could not be written.`

/** The usage of an option that takes a value, as help shows it. */
const usageOf = (name: string): string => new RegExp(`--${name} <[^>]+>`).exec(lintUsage)?.[0] ?? `--${name} <value>`

/** Read `tiers lint`’s arguments into settings; `null` for `--help`. A refused option or value is a `UserError`. */
export function parseLintArgs(
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  terminal: LintTerminal = processTerminal()
): LintSettings | null {
  const parsed = parseCommandArgs({args: [...argv], allowPositionals: true, strict: true, options: lintOptions}, {command: 'lint', usage: usageOf})
  try {
    return lintSettingsOf(parsed, argv, cwd, env, terminal)
  } catch (error) {
    throw error instanceof LintArgsError ? new UserError(error.message) : error
  }
}

/** The command that writes the baseline again for the same files and baseline. */
export function updateBaselineCommand(settings: Pick<LintSettings, 'files' | 'baseline'>): string {
  const paths = settings.files.length === 1 && settings.files[0] === '.' ? [] : settings.files
  const baseline = typeof settings.baseline === 'string' ? ['--baseline', settings.baseline] : []
  return ['tiers lint --update-baseline', ...[...baseline, ...paths].map(shellQuote)].join(' ')
}

/** What `tiers lint` says after its report: the baseline written or applied, too many warnings. */
export function lintSummary(result: LintResult, settings: LintSettings): string[] {
  const lines: string[] = []
  const update = updateBaselineCommand(settings)
  if (result.wroteBaseline) {
    const {file, warnings, files} = result.wroteBaseline
    lines.push(`wrote ${file}: it accepts ${counted(warnings, 'warning')} in ${counted(files, 'file')}`)
  } else if (result.baseline) {
    const {file, accepted, unused} = result.baseline
    if (accepted > 0) lines.push(`${counted(accepted, 'warning')} accepted by the baseline ${file}`)
    if (unused > 0)
      lines.push(`${counted(unused, 'warning')} in the baseline ${file} no longer ${unused === 1 ? 'occurs' : 'occur'}: \`${update}\` prunes them`)
  }
  if (result.tooManyWarnings) lines.push(`tiers: Unexpected ${counted(result.warnings, 'warning')}, expected at most ${settings.maxWarnings} (--max-warnings)`)
  return lines
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

/** What `tiers lint` prints after a run (its report, unless it goes to a file, then its summary), and its exit code. */
export function lintOutput(result: LintResult, settings: LintSettings): LintOutput {
  const writes: LintOutput['writes'] = []
  if (settings.outputFile === undefined && result.report.text) writes.push({stream: result.report.stream, text: result.report.text})
  for (const line of lintSummary(result, settings)) writes.push({stream: 'stderr', text: line + '\n'})
  return {writes, code: result.code}
}

/**
 * Run `tiers lint` with the engine; resolves to the exit code. (`lintCommand`
 * first asks `replayLint` whether the cache answers the run whole.)
 */
export async function runLint(argv: readonly string[], io: LintIo, cwd: string = process.cwd()): Promise<number> {
  let settings
  try {
    settings = parseLintArgs(argv, cwd)
  } catch (error) {
    io.stderr(`tiers: ${firstLine(error)}`)
    return exitCodes.user
  }
  if (!settings) {
    io.stdout(lintUsage)
    return exitCodes.ok
  }
  const lintSettings = settings
  try {
    const {lintFiles, writeReport} = await import('@verification-tiers/lint/run')
    const result = await lintFiles(settings, io.stderr, {outputOf: (each) => lintOutput(each, lintSettings), folder: programFolder})
    if (result.diff) io.stdout(result.diff.replace(/\n$/, ''))
    if (settings.outputFile !== undefined) {
      try {
        await writeReport(settings.outputFile, result.report.text, settings.cwd)
      } catch (error) {
        io.stderr(`tiers: ${firstLine(error)}`)
        return exitCodes.broken
      }
    }
    return printLintOutput(result.output ?? lintOutput(result, settings), io)
  } catch (error) {
    io.stderr(`tiers: ${firstLine(error)}`)
    return exitCodes.broken
  }
}
