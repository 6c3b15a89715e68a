import {availableParallelism} from 'node:os'
import type {VFile} from 'vfile'
import {statistics} from 'vfile-statistics'
import type {LintedFile, SourceFile} from './batch.js'
import {discoverFiles} from './discover.js'
import {fromMessageData} from './messages.js'
import {lintInParallel, makeBatches} from './pool.js'
import {reportFiles} from './report.js'
import type {BatchSettings, LintSettings} from './settings.js'

/** Below this much text, starting workers (each loads the engine and the rules: ~0.35 s) costs more than it saves. */
const threadThreshold = 4 * 1024 * 1024

/** The result of `tiers lint`: the report the remark CLI would print, and its exit code. */
export interface LintResult {
  files: VFile[]
  report: string
  code: 0 | 1
}

/**
 * Lint markdown files as the remark CLI does — same files, same
 * configuration and ignore files, same messages and report — on worker
 * threads, parsing large files in sections and skipping files without a
 * contract when only contract rules run.
 */
export async function lintFiles(settings: LintSettings): Promise<LintResult> {
  const files = await discoverFiles(settings)
  // A file given twice is linted once, and reported under its first mention, as remark does.
  const byPath = new Map<string, VFile>()
  for (const file of files) if (!byPath.has(file.path)) byPath.set(file.path, file)
  const sources: SourceFile[] = [...byPath.values()]
    .filter((file) => !statistics(file).fatal)
    .map((file) => ({path: file.path, value: String(file.value)}))
  const batchSettings: BatchSettings = {cwd: settings.cwd, detectConfig: settings.detectConfig, rcPath: settings.rcPath}
  const characters = sources.reduce((sum, file) => sum + file.value.length, 0)
  // Threads asked for are used; by default more than this one only when there is enough to do.
  const threads = settings.threads ?? (characters >= threadThreshold ? availableParallelism() : 1)
  const linted: LintedFile[] = await lintInParallel(batchSettings, makeBatches(sources), threads)

  for (const result of linted) {
    const file = byPath.get(result.path)
    if (file) file.messages.push(...result.messages.map((data) => fromMessageData(data, file.path)))
  }
  let report = reportFiles(files, {color: settings.color, quiet: settings.quiet, silent: settings.silent})
  if (report && !report.endsWith('\n')) report += '\n'
  const stats = statistics(files)
  const failed = settings.frail ? stats.fatal || stats.warn : stats.fatal
  return {files, report, code: failed ? 1 : 0}
}
