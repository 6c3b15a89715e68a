// The lint cache file as data: read and checked with Node's own modules
// alone, so that a run answered whole from it loads nothing else.
import {createHash} from 'node:crypto'
import {FileReadError, readInputFileSync} from '@verification-tiers/input/read'
import {isCodeMemo} from './environment.js'
import type {CodeMemo} from './environment.js'
import {isMessageData} from './message-data.js'
import type {MessageData} from './message-data.js'
import {readRegularFile} from './regular-file.js'

// A cache larger than this is not read: it is rebuilt.
const maxCacheBytes = 64 * 1024 * 1024
export const cacheVersion = 2

/** What is known of one file: the digests it was linted with, and its messages. */
export interface CacheEntry {
  content: string
  environment: string
  messages: MessageData[]
}

/** A run remembered: the snapshot of what decided its files (`foundFilesSnapshot`), and the files it found, as their paths were shown. */
export interface RunRecord {
  snapshot: string
  files: string[]
}

/** One write of a program’s output: the stream, and the text as written (line endings included). */
export interface OutputWrite {
  stream: 'stdout' | 'stderr'
  text: string
}

/** What a run printed and its exit code: what a run with the same inputs prints again. */
export interface LintOutput {
  writes: OutputWrite[]
  code: number
}

/** A finished run remembered: the digest of everything its output depends on (`lintOutputDigest`), the files it found, and its output. */
export interface OutputRecord extends LintOutput {
  digest: string
  /** The snapshot of the files found (`foundFilesSnapshot`), compared before any file is read: a file that became a FIFO is not opened. */
  snapshot: string
  /** Each file found, as its path was shown, with its stamp (`fileStampOf`) when its text was the one linted, or `null`. */
  files: Array<[string, string | null]>
}

/** The cache as read: its entries by absolute path, the runs and outputs by key, and the code digest with what it was computed from. */
export interface CacheData {
  entries: Map<string, CacheEntry>
  runs: Map<string, RunRecord>
  outputs: Map<string, OutputRecord>
  code?: CodeMemo | undefined
  /** Why the file was not used (it is then rebuilt); absent when it was, or when there was none. */
  ignored?: string
}

export const isDigest = (value: unknown): value is string => typeof value === 'string' && /^[\da-f]{64}$/.test(value)
const isTexts = (value: unknown): value is string[] => Array.isArray(value) && value.every((each) => typeof each === 'string')

export const contentDigest = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The text of `file`, or `null` when it cannot be read or is not a regular file (a FIFO would hold the run). */
export function readTextOrNull(file: string): string | null {
  const content = readRegularFile(file)
  return content === null || content === 'other' ? null : content.toString('utf8')
}

function isRun(value: unknown): value is RunRecord {
  if (typeof value !== 'object' || value === null) return false
  const run = value as Record<string, unknown>
  return isDigest(run.snapshot) && isTexts(run.files)
}

function isOutput(value: unknown): value is OutputRecord {
  if (typeof value !== 'object' || value === null) return false
  const output = value as Record<string, unknown>
  const isWrite = (write: unknown) =>
    typeof write === 'object' &&
    write !== null &&
    ['stdout', 'stderr'].includes((write as OutputWrite).stream) &&
    typeof (write as OutputWrite).text === 'string'
  const isFile = (file: unknown) => Array.isArray(file) && file.length === 2 && typeof file[0] === 'string' && (file[1] === null || typeof file[1] === 'string')
  return (
    isDigest(output.digest) &&
    isDigest(output.snapshot) &&
    Array.isArray(output.files) &&
    output.files.every(isFile) &&
    Array.isArray(output.writes) &&
    output.writes.every(isWrite) &&
    Number.isInteger(output.code)
  )
}

function isEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  return isDigest(entry.content) && isDigest(entry.environment) && Array.isArray(entry.messages) && entry.messages.every(isMessageData)
}

/** The records of `value` that pass `check`, by key; others are dropped (they are a cache’s, rebuilt when needed). */
function recordsOf<T>(value: unknown, check: (each: unknown) => each is T): Map<string, T> {
  const records = new Map<string, T>()
  if (typeof value === 'object' && value !== null) for (const [key, each] of Object.entries(value)) if (check(each)) records.set(key, each)
  return records
}

/** The lint cache in `file`, or why it is not used (it is then rebuilt). */
export async function readLintCacheFile(file: string): Promise<CacheData> {
  const none = (ignored?: string): CacheData => ({entries: new Map(), runs: new Map(), outputs: new Map(), ...(ignored === undefined ? {} : {ignored})})
  let text: string | undefined
  try {
    // At once, not through the thread pool: a run the cache answers whole does little else.
    text = readInputFileSync(file, {limit: maxCacheBytes})
  } catch (error) {
    return none(error instanceof FileReadError ? error.reason : (error as Error).message)
  }
  if (text === undefined) return none()
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return none('not JSON')
  }
  const record = data as {version?: unknown; entries?: unknown; runs?: unknown; outputs?: unknown; code?: unknown}
  if (
    typeof data !== 'object' ||
    data === null ||
    record.version !== cacheVersion ||
    typeof record.entries !== 'object' ||
    record.entries === null ||
    Array.isArray(record.entries)
  ) {
    return none(`not a version ${cacheVersion} lint cache`)
  }
  const entries = new Map<string, CacheEntry>()
  for (const [key, value] of Object.entries(record.entries)) {
    if (!isEntry(value)) return none(`its entry for ${key} is not valid`)
    entries.set(key, value)
  }
  return {entries, runs: recordsOf(record.runs, isRun), outputs: recordsOf(record.outputs, isOutput), code: isCodeMemo(record.code) ? record.code : undefined}
}
