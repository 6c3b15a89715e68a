import markdownExtensions from 'markdown-extensions'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import type {Options as EngineOptions} from 'unified-engine'

/** What `tiers lint` was asked to do; the same switches as the remark CLI. */
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
  /** Threads to lint on, this one included (default: one per core; `1` or `0`: this one only). */
  threads?: number | undefined
}

/** The settings of the file pipeline that travel to a worker (plain data). */
export type BatchSettings = Pick<LintSettings, 'cwd' | 'detectConfig' | 'rcPath'>

/**
 * Engine options the remark CLI uses (remark-cli passes these to
 * unified-args), so that `tiers lint` reads the same configuration and ignore
 * files. Where no configuration is found, the verification-tiers preset runs.
 */
export function remarkEngineOptions(settings: BatchSettings): Omit<EngineOptions, 'processor'> {
  return {
    cwd: settings.cwd,
    extensions: markdownExtensions,
    ignoreName: '.remarkignore',
    packageField: 'remarkConfig',
    pluginPrefix: 'remark',
    rcName: '.remarkrc',
    rcPath: settings.rcPath,
    detectConfig: settings.detectConfig,
    defaultConfig: {plugins: [remarkPresetLintVerificationTiers]},
    out: false,
    output: false,
    // Reports are written once, by the thread that has every file.
    reporter: () => ''
  }
}
