import {existsSync} from 'node:fs'
import {lstat, mkdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {VFile} from 'vfile'
import writeFileAtomic from 'write-file-atomic'
import {cacheVersion, contentDigest as digest, readLintCacheFile, readTextOrNull} from './cache-file.js'
import type {LintOutput, OutputRecord} from './cache-file.js'
import {codeDigest, environmentDigests} from './environment.js'
import {fromMessageData, isKeepable, toMessageData} from './messages.js'
import {canRememberOutput, lintOutputDigest, lintOutputKey} from './output.js'
import type {LintSettings} from './settings.js'
import {fileStampOf} from './stamp.js'

export {defaultLintCachePath} from './settings.js'

// The runs and outputs remembered (see `replayRun`, `rememberOutput`): enough for the paths and options one project lints with.
const maxRuns = 20

/** The lint cache of one run: files whose text and environment are unchanged get their messages back. */
export interface LintCache {
  /** The file with its messages as last linted, or `undefined` when it must be linted. */
  replay(file: VFile): Promise<VFile | undefined>
  /** Keep what `files` linted to (only files whose messages can all be shown again). */
  store(files: readonly VFile[]): Promise<void>
  /** Drop what is kept for `file` (a path from the working folder): its messages this time cannot be kept. */
  forget(file: string): void
  /**
   * The files the run with this key found last time, each with its messages
   * replayed, when `snapshot` says nothing that decides them changed and
   * every one is unchanged; `undefined` when any is not (the engine runs).
   */
  replayRun(key: string, snapshot: string): Promise<VFile[] | undefined>
  /** Remember what the run with this key found, under `snapshot` (taken before the files were found). */
  rememberRun(key: string, snapshot: string, found: readonly VFile[]): void
  /**
   * Remember what this run printed, under the digest of its inputs: the
   * baseline’s text as read, the snapshot, and the files found (as their
   * paths are shown), each of which must have an entry. Nothing is
   * remembered when one has none, or when the settings do not allow it
   * (`canRememberOutput`).
   */
  rememberOutput(inputs: {baseline: string | null; snapshot: string; files: readonly string[]}, output: LintOutput): void
  /** Write the cache, atomically. */
  save(): Promise<void>
}

/**
 * Open the lint cache at `file`. A cache that cannot be read, or is not
 * exactly what this version writes, is not trusted: `warn` says why, and it
 * is rebuilt from scratch.
 */
export async function openLintCache(file: string, settings: LintSettings, warn: (text: string) => void, program: string | null = null): Promise<LintCache> {
  const {entries, runs, outputs, code: memo, ignored} = await readLintCacheFile(file)
  if (ignored) warn(`tiers: warning: ignored the lint cache ${file} (${ignored}); rebuilding it`)
  const code = codeDigest(memo, program)
  const environmentOf = environmentDigests(settings, code.digest)
  const keyOf = (vfile: VFile): string => path.resolve(settings.cwd, vfile.path)
  // Written only when something changed: a run that replays everything writes nothing.
  let changed = ignored !== undefined || code !== memo
  const replay = async (vfile: VFile): Promise<VFile | undefined> => {
    const entry = entries.get(keyOf(vfile))
    if (!entry || entry.content !== digest(String(vfile.value)) || entry.environment !== (await environmentOf(vfile.path))) return undefined
    const replayed = new VFile({path: vfile.path, cwd: vfile.cwd, value: vfile.value})
    for (const data of entry.messages) replayed.messages.push(fromMessageData(data, replayed.path))
    return replayed
  }
  return {
    replay,
    async store(files) {
      for (const vfile of files) {
        changed = true
        const key = keyOf(vfile)
        if (!vfile.messages.every(isKeepable)) {
          entries.delete(key)
          continue
        }
        entries.set(key, {content: digest(String(vfile.value)), environment: await environmentOf(vfile.path), messages: vfile.messages.map(toMessageData)})
      }
    },
    forget(file) {
      changed = entries.delete(path.resolve(settings.cwd, file)) || changed
    },
    async replayRun(key, snapshot) {
      const run = runs.get(key)
      if (!run || run.snapshot !== snapshot) return undefined
      const files: VFile[] = []
      for (const shown of run.files) {
        const value = await readFile(path.resolve(settings.cwd, shown), 'utf8').catch(() => null)
        const replayed = value === null ? undefined : await replay(new VFile({path: shown, cwd: settings.cwd, value}))
        if (!replayed) return undefined
        files.push(replayed)
      }
      return files
    },
    rememberRun(key, snapshot, found) {
      changed = true
      runs.delete(key)
      runs.set(key, {snapshot, files: found.map((vfile) => vfile.path)})
      for (const old of [...runs.keys()].slice(0, Math.max(0, runs.size - maxRuns))) runs.delete(old)
    },
    rememberOutput({baseline, snapshot, files}, output) {
      if (!canRememberOutput(settings)) return
      const found = files.map((shown) => [shown, entries.get(path.resolve(settings.cwd, shown))] as const)
      if (!found.every((each): each is readonly [string, NonNullable<(typeof each)[1]>] => each[1] !== undefined)) return
      const stamped: OutputRecord['files'] = []
      for (const [shown, entry] of found) {
        const absolute = path.resolve(settings.cwd, shown)
        // Stamped, then read: a text equal to the one linted was there when the stamp was taken, and any change since changes the stamp.
        const stamp = fileStampOf(absolute)
        const text = readTextOrNull(absolute)
        // A file changed since it was linted: this output is already stale.
        if (text === null || digest(text) !== entry.content) return
        stamped.push([shown, stamp])
      }
      const record: OutputRecord = {digest: lintOutputDigest({settings, baseline, snapshot, files: found}), snapshot, files: stamped, ...output}
      const key = lintOutputKey(settings)
      if (JSON.stringify(outputs.get(key)) === JSON.stringify(record)) return
      changed = true
      outputs.delete(key)
      outputs.set(key, record)
      for (const old of [...outputs.keys()].slice(0, Math.max(0, outputs.size - maxRuns))) outputs.delete(old)
    },
    async save() {
      if (!changed) return
      // Files that are gone are forgotten.
      for (const key of entries.keys()) if (!existsSync(key)) entries.delete(key)
      await mkdir(path.dirname(file), {recursive: true})
      // `write-file-atomic` follows links: a link in the state folder would take the cache outside it.
      for (const each of [path.dirname(file), file]) {
        if ((await lstat(each).catch(() => null))?.isSymbolicLink())
          throw new Error(`${each}: Unexpected symbolic link, expected a real folder or file: the cache is never written through a link`)
      }
      await writeFileAtomic(
        file,
        JSON.stringify({
          version: cacheVersion,
          entries: Object.fromEntries(entries),
          runs: Object.fromEntries(runs),
          outputs: Object.fromEntries(outputs),
          code
        }) + '\n'
      )
    }
  }
}
