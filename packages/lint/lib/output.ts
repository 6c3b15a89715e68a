/**
 * A lint run answered whole from the cache: the output a run printed (its
 * writes and exit code) is kept under a digest of everything it depends on,
 * and a run whose inputs have the same digest prints it again. Node’s own
 * modules and this package’s plain-data modules only: no engine, parser,
 * rule, vfile or reporter loads on this path.
 */
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import path from 'node:path'
import {readLintBaselineText} from './baseline-file.js'
import {contentDigest, readLintCacheFile, readTextOrNull} from './cache-file.js'
import type {CacheEntry, LintOutput} from './cache-file.js'
import {codeDigest, environmentDigests} from './environment.js'
import {foundFilesSnapshot} from './found.js'
import {lintBaselineFile} from './settings.js'
import type {LintSettings} from './settings.js'
import {fileStampOf} from './stamp.js'

/** Every setting, in a fixed order: each can change what a run prints or exits with. */
const outputSettings = [
  'cwd',
  'files',
  'frail',
  'quiet',
  'silent',
  'color',
  'detectConfig',
  'detectIgnore',
  'ignorePath',
  'ignorePatterns',
  'rcPath',
  'format',
  'outputFile',
  'fix',
  'fixDryRun',
  'cache',
  'baseline',
  'updateBaseline',
  'maxWarnings'
] as const satisfies ReadonlyArray<keyof LintSettings>

// A setting added to `LintSettings` and not listed above fails to compile here: the key would not see it.
const everySettingListed: [Exclude<keyof LintSettings, (typeof outputSettings)[number]>] extends [never] ? true : never = true
void everySettingListed

/** The key a run’s output is remembered under: all its settings. */
export function lintOutputKey(settings: LintSettings): string {
  return JSON.stringify(outputSettings.map((name) => settings[name] ?? null))
}

/**
 * Whether a run’s output may be remembered and printed again: a run with the
 * cache that changes no file (no fixes, no baseline written) and prints its
 * report (a report file could have been changed or removed since).
 */
export function canRememberOutput(settings: LintSettings): boolean {
  return settings.cache !== undefined && !settings.fix && !settings.fixDryRun && !settings.updateBaseline && settings.outputFile === undefined
}

/** What a run’s output depends on, besides the code (the environment digest of each entry holds it). */
export interface OutputInputs {
  settings: LintSettings
  /** The baseline file’s text as read, or `null` when there is none. */
  baseline: string | null
  /** `foundFilesSnapshot` of the run, taken before its files were found. */
  snapshot: string
  /** Each file found, as its path is shown, with its cache entry (its content and environment digests, and its messages). */
  files: ReadonlyArray<readonly [string, CacheEntry]>
}

/** The files a baseline text names, sorted; none when it is not a JSON object (such a baseline stops the run). */
function baselineFilesOf(text: string | null): string[] {
  if (text === null) return []
  try {
    const data = JSON.parse(text) as unknown
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? Object.keys(data).sort() : []
  } catch {
    return []
  }
}

/** The digest of everything a run’s output depends on: equal digests, equal output. */
export function lintOutputDigest({settings, baseline, snapshot, files}: OutputInputs): string {
  const folder = path.dirname(lintBaselineFile(settings) ?? settings.cwd)
  // A warning the baseline lists for a file not linted now is unused only once that file is gone: whether each is there is an input too.
  const listed = baselineFilesOf(baseline).map((file) => [file, existsSync(path.resolve(folder, file))])
  return createHash('sha256')
    .update(JSON.stringify([lintOutputKey(settings), baseline, listed, snapshot, files]))
    .digest('hex')
}

/**
 * The output of the run `settings` asks for, as a run with the same inputs
 * printed it, or `undefined` when it must run: nothing remembered, or any
 * input changed (a setting, the baseline, the files found, a file’s text,
 * its configuration, the code). `program` is the calling program’s folder,
 * whose code is part of what it prints (see `codeDigest`).
 */
export async function replayLintOutput(settings: LintSettings, program: string | null = null): Promise<LintOutput | undefined> {
  if (!canRememberOutput(settings) || settings.cache === undefined) return undefined
  const cacheFile = path.resolve(settings.cwd, settings.cache)
  const cache = await readLintCacheFile(cacheFile)
  const record = cache.outputs.get(lintOutputKey(settings))
  if (cache.ignored !== undefined || !record) return undefined
  // Code that changed since the cache was written is left to a full run, which reads it and writes the cache again.
  // Stamps that changed with the code as it was (a folder touched, a package installed again) only cost reading it.
  const code = codeDigest(cache.code, program)
  if (code.digest !== cache.code?.digest) return undefined
  const baselineFile = lintBaselineFile(settings)
  const [snapshot, baseline] = await Promise.all([
    foundFilesSnapshot(settings, cacheFile),
    baselineFile === undefined ? null : readLintBaselineText(baselineFile).catch(() => undefined)
  ])
  // The files found are compared first: a file that is no longer one (a FIFO would hold the run) is never opened.
  if (snapshot !== record.snapshot || baseline === undefined) return undefined
  const environmentOf = environmentDigests(settings, code.digest)
  const files = await Promise.all(
    record.files.map(async ([shown, stamp]) => {
      const absolute = path.resolve(settings.cwd, shown)
      const entry = cache.entries.get(absolute)
      if (!entry || entry.environment !== (await environmentOf(shown))) return undefined
      // The same stamp: the text linted, not read again (see `fileStampOf`).
      if (stamp !== null && fileStampOf(absolute) === stamp) return [shown, entry] as const
      const text = readTextOrNull(absolute)
      return text !== null && entry.content === contentDigest(text) ? ([shown, entry] as const) : undefined
    })
  )
  if (!files.every((file) => file !== undefined)) return undefined
  if (lintOutputDigest({settings, baseline, snapshot, files}) !== record.digest) return undefined
  return {writes: record.writes, code: record.code}
}
