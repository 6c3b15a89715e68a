import path from 'node:path'

/** How `tiers lint` prints what it found. */
export type LintFormat = 'stylish' | 'github' | 'sarif' | 'junit' | 'json'

/** The formats, in the order help lists them. */
export const lintFormats: readonly LintFormat[] = ['stylish', 'github', 'sarif', 'junit', 'json']

/** What `tiers lint` was asked to do: the remark CLI’s switches, and what CI adds. */
export interface LintSettings {
  /** Folder that paths, configuration and ignore files resolve from. */
  cwd: string
  /** Files, folders and globs (default: `.`). */
  files: string[]
  /** Exit 1 on warnings too. */
  frail: boolean
  /** Leave out files without messages from the report. */
  quiet: boolean
  /** Report only fatal messages. */
  silent: boolean
  /** ANSI colours in the report (the remark CLI’s default: on). */
  color: boolean
  /** Search for `.remarkrc*` and `remarkConfig` in `package.json`. */
  detectConfig: boolean
  /** Search for `.remarkignore`. */
  detectIgnore: boolean
  ignorePath?: string | undefined
  ignorePatterns: string[]
  rcPath?: string | undefined
  /** Report format (default: `stylish`, the remark CLI’s; `github` under GitHub Actions). */
  format: LintFormat
  /** File to write the report to, from `cwd`, instead of stdout or stderr; none: print it. */
  outputFile?: string | undefined
  /** Apply each message’s single `expected` value to the file. */
  fix: boolean
  /** Print the fixes as a unified diff; change nothing. */
  fixDryRun: boolean
  /** File of the lint cache; none: no cache. */
  cache?: string | undefined
  /** File of the baseline, read when it exists (default: `tiers-lint-baseline.json` in `cwd`); `false`: none read. */
  baseline?: string | false | undefined
  /** Write the baseline from this run's warnings before reporting. */
  updateBaseline?: boolean | undefined
  /** Exit 1 when more warnings than this are left after the baseline; none: no limit. */
  maxWarnings?: number | undefined
}

/**
 * The settings `lintTexts` lints files already read with: the configuration
 * found from each file's folder (else the preset), no ignore files. A cache
 * of its messages keys them on these, so they are defined once.
 */
export function textLintSettings(cwd: string): LintSettings {
  return {
    cwd,
    files: [],
    frail: false,
    quiet: false,
    silent: false,
    color: false,
    detectConfig: true,
    detectIgnore: false,
    ignorePatterns: [],
    format: 'stylish',
    fix: false,
    fixDryRun: false
  }
}

/** Where `--cache` keeps what it knows, from the folder linted from. */
export const defaultLintCachePath = path.join('.greenlight', 'tiers', '.lint-cache')

/** Where the baseline is kept, from the folder linted from. */
export const defaultLintBaselinePath = 'tiers-lint-baseline.json'

/** The baseline file a run reads, absolute; none when `--no-baseline`. */
export function lintBaselineFile(settings: Pick<LintSettings, 'cwd' | 'baseline'>): string | undefined {
  return settings.baseline === false ? undefined : path.resolve(settings.cwd, settings.baseline ?? defaultLintBaselinePath)
}
