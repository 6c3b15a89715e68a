import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {VFile} from 'vfile'
import {statistics} from 'vfile-statistics'
import {FileReadError} from '@verification-tiers/input/read'
import {applyLintBaseline, lintBaselineOf, lintBaselineSize, mergeLintBaseline, parseLintBaseline, readLintBaselineText, writeLintBaseline} from './baseline.js'
import type {BaselineOutcome, LintBaseline} from './baseline.js'
import type {LintOutput} from './cache-file.js'
import {openLintCache} from './cache.js'
import {foundFilesKey, foundFilesSnapshot} from './found.js'
import {formatReport} from './report.js'
import type {Report} from './report.js'
import {lintBaselineFile} from './settings.js'
import type {LintSettings} from './settings.js'

/** The result of `tiers lint`: the files with their messages, what to print, and the exit code. */
export interface LintResult {
  files: VFile[]
  report: Report
  /** A unified diff of the fixes (`--fix-dry-run`). */
  diff: string
  /** Warnings reported (those the baseline accepts are not). */
  warnings: number
  /** What the baseline did, when there is one. */
  baseline?: BaselineOutcome | undefined
  /** What `updateBaseline` wrote: the file, and how many warnings in how many files it accepts. */
  wroteBaseline?: {file: string; warnings: number; files: number} | undefined
  /** Whether the warnings exceed `maxWarnings`. */
  tooManyWarnings: boolean
  code: 0 | 1
  /** What `outputOf` made of this result, when given. */
  output?: LintOutput | undefined
}

/** What a program prints for a result, and its exit code: remembered by the cache, and printed again by `replayLintOutput`. */
export type OutputOf = (result: LintResult) => LintOutput

/** Where `tiers lint` tells the user what it did besides the report (fixes, an ignored cache). */
export type Notify = (line: string) => void

/** A copy of a found file to lint: the engine marks the files it handles, so each run gets its own. */
function fresh(file: VFile, settings: LintSettings): VFile {
  return new VFile({path: path.resolve(settings.cwd, file.path), cwd: settings.cwd, value: file.value})
}

/**
 * Lint `files` (as found or fixed) on the engine; each result keeps the path
 * it was found under, which is the one the report shows.
 */
async function lintFound(settings: LintSettings, files: readonly VFile[]): Promise<Map<VFile, VFile>> {
  const copies = new Map(files.map((file) => [path.resolve(settings.cwd, file.path), file]))
  const results = new Map<VFile, VFile>()
  const {lintWithEngine} = await import('./engine.js')
  for (const linted of await lintWithEngine(settings, {files: files.map((file) => fresh(file, settings))})) {
    const found = copies.get(path.resolve(settings.cwd, linted.path))
    if (!found) continue
    const result = new VFile({path: found.path, cwd: found.cwd, value: linted.value})
    for (const message of linted.messages) result.messages.push(message)
    results.set(found, result)
  }
  return results
}

/**
 * Lint, with the cache: unchanged files get their messages back, the others
 * are linted. When nothing that decides which files are found changed
 * (`foundFilesSnapshot`) and every file found last time is unchanged, their
 * messages are replayed without loading the engine, the parser or a rule.
 */
async function lintWithCache(
  settings: LintSettings,
  cacheFile: string,
  notify: Notify,
  program: string | null
): Promise<{files: VFile[]; cache: Awaited<ReturnType<typeof openLintCache>>; found?: {snapshot: string; files: string[]} | undefined}> {
  const cache = await openLintCache(cacheFile, settings, notify, program)
  // The cache’s folder is made first, so that the first run’s snapshot already holds it.
  await mkdir(path.dirname(cacheFile), {recursive: true}).catch(() => {})
  const snapshot = await foundFilesSnapshot(settings, cacheFile)
  const key = foundFilesKey(settings)
  const unchanged = snapshot === null ? undefined : await cache.replayRun(key, snapshot)
  if (unchanged) return {files: unchanged, cache, found: {snapshot: snapshot!, files: unchanged.map((file) => file.path)}}
  const {findFiles} = await import('./engine.js')
  const found = await findFiles(settings)
  const toLint: VFile[] = []
  const replayed = new Map<VFile, VFile>()
  const seen = new Set<string>()
  for (const file of found) {
    const absolute = path.resolve(settings.cwd, file.path)
    // A file that cannot be linted (missing, ignored but given) keeps its message; a
    // file given again is reported without messages, as the engine lints it only once.
    const repeated = seen.has(absolute)
    seen.add(absolute)
    const known = file.messages.length > 0 || repeated ? file : await cache.replay(file)
    if (known) replayed.set(file, known)
    else toLint.push(file)
  }
  const linted = toLint.length > 0 ? await lintFound(settings, toLint) : new Map<VFile, VFile>()
  await cache.store([...linted.values()])
  // Remembered only when every file was found without a message (none missing or ignored), so each can be replayed.
  const whole = snapshot !== null && found.every((file) => file.messages.length === 0) && seen.size === found.length
  if (whole) cache.rememberRun(key, snapshot, found)
  const files = found.map((file) => replayed.get(file) ?? linted.get(file) ?? file)
  return {files, cache, found: whole ? {snapshot, files: found.map((file) => file.path)} : undefined}
}

/** What a program adds to a lint: how it prints a result, and its own folder (see `codeDigest`). */
export interface LintProgram {
  /** What the program prints for a result; with the cache, it is remembered for `replayLintOutput`. */
  outputOf?: OutputOf | undefined
  /** The program’s folder: its code is part of what it prints, so a change to it invalidates what the cache remembers. */
  folder?: string | undefined
}

/**
 * Lint markdown files as the remark CLI does — the same engine, files,
 * configuration, ignore files and messages — then, as asked, apply fixes,
 * keep a cache, and report in the format asked for.
 */
export async function lintFiles(settings: LintSettings, notify: Notify = () => {}, program: LintProgram = {}): Promise<LintResult> {
  const baselineFile = lintBaselineFile(settings)
  const baselineShown = baselineFile && path.relative(settings.cwd, baselineFile)
  // Read first: a bad baseline stops the run before a fix changes any file.
  const baselineText = baselineFile ? await readLintBaselineText(baselineFile, baselineShown) : null
  const baseline: LintBaseline | null = baselineText === null ? null : parseLintBaseline(baselineShown!, baselineText)
  // A baseline named and not there is a mistake to say, not a run that silently accepts nothing.
  if (typeof settings.baseline === 'string' && !baseline && !settings.updateBaseline) {
    throw new FileReadError(baselineShown!, 'Unexpected missing baseline, expected the file `--baseline` names (`--update-baseline` writes it)')
  }
  const cacheFile = settings.cache === undefined ? undefined : path.resolve(settings.cwd, settings.cache)
  const cached = cacheFile ? await lintWithCache(settings, cacheFile, notify, program.folder ?? null) : undefined
  let files = cached ? cached.files : await (await import('./engine.js')).lintWithEngine(settings, {paths: settings.files})
  let diff = ''
  if (settings.fix || settings.fixDryRun) {
    const {fixFiles} = await import('./apply.js')
    const fixed = await fixFiles(files, {write: !settings.fixDryRun, notify})
    diff = fixed.diff
    // A dry run changes nothing, so the report is of the files as they are.
    if (fixed.changed.size > 0 && !settings.fixDryRun) {
      // What is left after the fixes is what the report shows.
      // Each fixed file is replaced by its own relinted copy: a file given twice is reported once with messages, as remark does.
      const next = new Map([...fixed.changed].map(([file, text]) => [file, new VFile({path: file.path, cwd: file.cwd, value: text})]))
      const relinted = await lintFound(settings, [...next.values()])
      files = files.map((file) => {
        const copy = next.get(file)
        return (copy && relinted.get(copy)) ?? file
      })
      await cached?.cache.store([...relinted.values()])
    }
  }
  try {
    const result = await reportOf(settings, files, diff, baseline, baselineFile)
    const output = program.outputOf?.(result)
    if (output && cached?.found) cached.cache.rememberOutput({baseline: baselineText, ...cached.found}, output)
    return {...result, output}
  } finally {
    // Written whatever the rest does: what was linted is kept even when the baseline cannot be written.
    await cached?.cache.save().catch((error: unknown) => notify(`tiers: warning: could not write the lint cache ${cacheFile}: ${(error as Error).message}`))
  }
}

/** The rest of a run, once its files are linted (and fixed): the baseline written or applied, the report and the exit code. */
async function reportOf(
  settings: LintSettings,
  linted: VFile[],
  diff: string,
  read: LintBaseline | null,
  baselineFile: string | undefined
): Promise<LintResult> {
  let files = linted
  let baseline = read
  let wroteBaseline: LintResult['wroteBaseline']
  let outcome: BaselineOutcome | undefined
  if (baselineFile) {
    const baselineShown = path.relative(settings.cwd, baselineFile)
    const folder = path.dirname(baselineFile)
    if (settings.updateBaseline) {
      baseline = mergeLintBaseline(baseline, lintBaselineOf(files, folder), files, folder)
      await writeLintBaseline(baselineFile, baseline, baselineShown)
      wroteBaseline = {file: baselineShown, ...lintBaselineSize(baseline)}
    }
    if (baseline) {
      const applied = applyLintBaseline(files, baseline, folder)
      files = applied.files
      outcome = {file: baselineShown, accepted: applied.accepted, unused: applied.unused}
    }
  }
  const stats = statistics(files)
  const tooManyWarnings = settings.maxWarnings !== undefined && stats.warn > settings.maxWarnings
  const failed = stats.fatal || (settings.frail && stats.warn) || tooManyWarnings
  return {files, report: formatReport(files, settings), diff, warnings: stats.warn, baseline: outcome, wroteBaseline, tooManyWarnings, code: failed ? 1 : 0}
}
