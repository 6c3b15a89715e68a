/**
 * What `tiers lint` reads from its arguments, and the run the lint cache
 * answers whole (`replayLint`): Node’s own modules and the lint package’s
 * plain data only, so that such a run loads nothing else.
 */
import {statSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import type {ParseArgsConfig} from 'node:util'
import {defaultLintCachePath, lintFormats, replayLintOutput} from '@verification-tiers/lint/replay'
import type {LintFormat, LintOutput, LintSettings} from '@verification-tiers/lint/replay'

/** The options of `tiers lint`, as `parseArgs` takes them. */
export const lintOptions = {
  frail: {type: 'boolean', default: false},
  'max-warnings': {type: 'string'},
  'list-clean': {type: 'boolean', default: false},
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
  'update-baseline': {type: 'boolean', default: false},
  baseline: {type: 'string'},
  'no-baseline': {type: 'boolean', default: false},
  help: {type: 'boolean', short: 'h', default: false}
} as const satisfies NonNullable<ParseArgsConfig['options']>

/** What `parseArgs` reads from `tiers lint`’s arguments. */
export type LintArgs = ReturnType<typeof parseArgs<{options: typeof lintOptions; allowPositionals: true; strict: true}>>

/** An option value or a combination `tiers lint` refuses; the command says it as a `UserError`. */
export class LintArgsError extends Error {}

/** Where the report goes: whether that stream is a terminal. */
export interface LintTerminal {
  stdout: boolean
  stderr: boolean
}

/** Whether this process’s own streams are terminals. */
export const processTerminal = (): LintTerminal => ({stdout: Boolean(process.stdout.isTTY), stderr: Boolean(process.stderr.isTTY)})

function parseFormat(value: string | undefined, env: NodeJS.ProcessEnv): LintFormat {
  if (value === undefined) return env.GITHUB_ACTIONS === 'true' ? 'github' : 'stylish'
  if (!(lintFormats as readonly string[]).includes(value))
    throw new LintArgsError(`Unexpected \`--format ${value}\`, expected one of ${lintFormats.join(', ')}`)
  return value as LintFormat
}

function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new LintArgsError(`Unexpected \`--max-warnings ${value}\`, expected a whole number of 0 or more`)
  return Number(value)
}

/**
 * Colour in the report: `--color` or `--no-color` (the last given) decide;
 * else `FORCE_COLOR` (set, not `0`) turns it on, `NO_COLOR` (set) off;
 * else it is on only when the report's stream is a terminal.
 */
function colorOf(argv: readonly string[], env: NodeJS.ProcessEnv, terminal: boolean): boolean {
  const asked = argv.filter((argument) => argument === '--color' || argument === '--no-color').at(-1)
  if (asked !== undefined) return asked === '--color'
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return terminal
}

/** The settings `tiers lint`’s parsed arguments ask for; `null` for `--help`. A value or combination it refuses is a `LintArgsError`. */
export function lintSettingsOf(parsed: LintArgs, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, terminal: LintTerminal): LintSettings | null {
  const {values, positionals} = parsed
  if (values.help) return null
  const format = parseFormat(values.format, env)
  if (values['output-file'] === '') throw new LintArgsError('Unexpected empty `--output-file`, expected a file name')
  // A diff on stdout would corrupt a report that is there too.
  if (values['fix-dry-run'] && format !== 'stylish' && values['output-file'] === undefined)
    throw new LintArgsError(`Unexpected \`--fix-dry-run\` with \`--format ${format}\`, expected one of them`)
  if (values['no-baseline'] && (values['update-baseline'] || values.baseline !== undefined)) {
    throw new LintArgsError(`Unexpected \`--no-baseline\` with \`${values['update-baseline'] ? '--update-baseline' : '--baseline'}\`, expected one of them`)
  }
  return {
    cwd,
    files: positionals.length > 0 ? positionals : ['.'],
    frail: values.frail,
    // In the report a person reads, files without messages are left out unless asked for: a long list of them hides the problems.
    // The machine formats keep them (a clean file is a passing test case in JUnit).
    quiet: values.quiet || (format === 'stylish' && !values['list-clean']),
    silent: values.silent,
    // A report written to a file has no colour unless asked for.
    color: colorOf(argv, env, values['output-file'] === undefined && (format === 'stylish' ? terminal.stderr : terminal.stdout)),
    detectConfig: !values['no-config'],
    detectIgnore: !values['no-ignore'],
    rcPath: values['rc-path'],
    ignorePath: values['ignore-path'],
    ignorePatterns: values['ignore-pattern'].flatMap((pattern) => pattern.split(',')),
    format,
    outputFile: values['output-file'],
    fix: values.fix,
    fixDryRun: values['fix-dry-run'],
    cache: values['cache-location'] ?? (values.cache ? defaultLintCache(cwd) : undefined),
    baseline: values['no-baseline'] ? false : values.baseline,
    updateBaseline: values['update-baseline'],
    maxWarnings: parseMaxWarnings(values['max-warnings'])
  }
}

/**
 * The folders a project of tiers is kept in, in the order tiers looks for
 * them (`projectFolderNames` of `@verification-tiers/project`, which a
 * replayed run does not load).
 */
export const projectFolderNames = ['.greenlight', 'specs', 'openspec', '.kiro', '.planning', '_bmad-output', '.bmad-core'] as const

/**
 * Where `--cache` keeps the cache without `--cache-location`: in tiers’ own
 * state folder of the first project folder in `cwd`, as
 * `specs/tiers/.lint-cache` in a spec-kit project, where `tiers init` keeps
 * it out of git and `tiers verify` leaves it out of what it proves; in
 * `.greenlight/tiers/.lint-cache` when `cwd` holds none of them.
 */
export function defaultLintCache(cwd: string): string {
  const folder = projectFolderNames.find((name) => statSync(path.join(cwd, name), {throwIfNoEntry: false})?.isDirectory())
  return folder === undefined ? defaultLintCachePath : path.join(folder, 'tiers', '.lint-cache')
}

/** This program’s own code, whose words are part of what it prints: what the cache remembers is not replayed after it changes. */
export const programFolder = fileURLToPath(new URL('../../', import.meta.url))

/** Write a run’s output: each write to its stream as it is. */
export function printLintOutput(output: LintOutput, io: {report: (text: string) => void; write: (text: string) => void}): number {
  for (const {stream, text} of output.writes) (stream === 'stderr' ? io.report : io.write)(text)
  return output.code
}

/**
 * The output of `tiers lint` with these arguments as the cache remembers it,
 * when nothing it depends on changed (`replayLintOutput`); `undefined` when
 * the command must run, or when the arguments are refused (the command says why).
 */
export async function replayLint(
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  terminal: LintTerminal = processTerminal()
): Promise<LintOutput | undefined> {
  let settings: LintSettings | null
  try {
    settings = lintSettingsOf(parseArgs({args: [...argv], options: lintOptions, allowPositionals: true, strict: true}), argv, cwd, env, terminal)
  } catch {
    return undefined
  }
  return settings ? replayLintOutput(settings, programFolder) : undefined
}
