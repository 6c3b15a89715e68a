import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {lstat, mkdir, readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {VFile} from 'vfile'
import writeFileAtomic from 'write-file-atomic'
import {environmentDigests} from './environment.js'
import {fromMessageData, isKeepable, isMessageData, toMessageData} from './messages.js'
import type {MessageData} from './messages.js'
import type {LintSettings} from './settings.js'

/** Where `--cache` keeps what it knows, from the folder linted from. */
export const defaultLintCachePath = path.join('.greenlight', 'tiers', '.lint-cache')

// A cache larger than this is not read: it is rebuilt.
const maxCacheBytes = 64 * 1024 * 1024
const cacheVersion = 2

// The runs remembered (see `replayRun`): enough for the paths one project lints.
const maxRuns = 20

/** What is known of one file: the digests it was linted with, and its messages. */
interface CacheEntry {
  content: string
  environment: string
  messages: MessageData[]
}

const isDigest = (value: unknown): value is string => typeof value === 'string' && /^[\da-f]{64}$/.test(value)

/** A run remembered: the snapshot of what decided its files (`foundFilesSnapshot`), and the files it found, as their paths were shown. */
interface RunRecord {
  snapshot: string
  files: string[]
}

function isRun(value: unknown): value is RunRecord {
  if (typeof value !== 'object' || value === null) return false
  const run = value as Record<string, unknown>
  return isDigest(run.snapshot) && Array.isArray(run.files) && run.files.every((file) => typeof file === 'string')
}

function isEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  return isDigest(entry.content) && isDigest(entry.environment) && Array.isArray(entry.messages) && entry.messages.every(isMessageData)
}

/** The cache’s entries, or why it is not used (it is then rebuilt). */
async function readEntries(file: string): Promise<{entries: Map<string, CacheEntry>; runs: Map<string, RunRecord>; ignored?: string}> {
  const empty = new Map<string, CacheEntry>()
  const none = new Map<string, RunRecord>()
  let text: string
  try {
    const info = await stat(file)
    if (!info.isFile()) return {entries: empty, runs: none, ignored: 'not a regular file'}
    if (info.size > maxCacheBytes) return {entries: empty, runs: none, ignored: `larger than ${maxCacheBytes} bytes`}
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {entries: empty, runs: none}
    return {entries: empty, runs: none, ignored: (error as Error).message}
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return {entries: empty, runs: none, ignored: 'not JSON'}
  }
  const record = data as {version?: unknown; entries?: unknown; runs?: unknown}
  if (typeof data !== 'object' || data === null || record.version !== cacheVersion || typeof record.entries !== 'object' || record.entries === null || Array.isArray(record.entries)) {
    return {entries: empty, runs: none, ignored: `not a version ${cacheVersion} lint cache`}
  }
  const entries = new Map<string, CacheEntry>()
  for (const [key, value] of Object.entries(record.entries)) {
    if (!isEntry(value)) return {entries: empty, runs: none, ignored: `its entry for ${key} is not valid`}
    entries.set(key, value)
  }
  const runs = new Map<string, RunRecord>()
  const storedRuns = typeof record.runs === 'object' && record.runs !== null ? Object.entries(record.runs) : []
  for (const [key, value] of storedRuns) if (isRun(value)) runs.set(key, value)
  return {entries, runs}
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The lint cache of one run: files whose text and environment are unchanged get their messages back. */
export interface LintCache {
  /** The file with its messages as last linted, or `undefined` when it must be linted. */
  replay(file: VFile): Promise<VFile | undefined>
  /** Keep what `files` linted to (only files whose messages can all be shown again). */
  store(files: readonly VFile[]): Promise<void>
  /**
   * The files the run with this key found last time, each with its messages
   * replayed, when `snapshot` says nothing that decides them changed and
   * every one is unchanged; `undefined` when any is not (the engine runs).
   */
  replayRun(key: string, snapshot: string): Promise<VFile[] | undefined>
  /** Remember what the run with this key found, under `snapshot` (taken before the files were found). */
  rememberRun(key: string, snapshot: string, found: readonly VFile[]): void
  /** Write the cache, atomically. */
  save(): Promise<void>
}

/**
 * Open the lint cache at `file`. A cache that cannot be read, or is not
 * exactly what this version writes, is not trusted: `warn` says why, and it
 * is rebuilt from scratch.
 */
export async function openLintCache(file: string, settings: LintSettings, warn: (text: string) => void): Promise<LintCache> {
  const {entries, runs, ignored} = await readEntries(file)
  if (ignored) warn(`tiers: warning: ignored the lint cache ${file} (${ignored}); rebuilding it`)
  const environmentOf = environmentDigests(settings)
  const keyOf = (vfile: VFile): string => path.resolve(settings.cwd, vfile.path)
  // Written only when something changed: a run that replays everything writes nothing.
  let changed = ignored !== undefined
  const replay = async (vfile: VFile): Promise<VFile | undefined> => {
    const entry = entries.get(keyOf(vfile))
    if (!entry || entry.content !== digest(String(vfile.value)) || entry.environment !== (await environmentOf(vfile.path))) return undefined
    const replayed = new VFile({path: vfile.path, cwd: vfile.cwd, value: vfile.value})
    replayed.messages.push(...entry.messages.map((data) => fromMessageData(data, replayed.path)))
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
    async save() {
      if (!changed) return
      // Files that are gone are forgotten.
      for (const key of entries.keys()) if (!existsSync(key)) entries.delete(key)
      await mkdir(path.dirname(file), {recursive: true})
      // `write-file-atomic` follows links: a link in the state folder would take the cache outside it.
      for (const each of [path.dirname(file), file]) {
        if ((await lstat(each).catch(() => null))?.isSymbolicLink()) throw new Error(`${each}: Unexpected symbolic link, expected a real folder or file: the cache is never written through a link`)
      }
      await writeFileAtomic(file, JSON.stringify({version: cacheVersion, entries: Object.fromEntries(entries), runs: Object.fromEntries(runs)}) + '\n')
    }
  }
}
