import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {mkdir, realpath} from 'node:fs/promises'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Contract} from '@verification-tiers/contracts'
import type {FolderGraph} from '@verification-tiers/graph'
import {foldContractName} from '@verification-tiers/contracts/gate-terms'
import isRecord from 'is-plain-obj'
import {formatSize, parseJson, readInputFile, writeFailure, writeOwnFile} from '@verification-tiers/runtime'
import {firstLine} from './errors.js'

/**
 * What was read of each contract file and of the graph (`GRAPH.json`,
 * `GRAPH.md`), by content hash, so a command does not read an unchanged file
 * again. It is kept in the user’s cache folder, outside every project:
 * whoever can edit the project cannot make an entry say what its file does
 * not. Entries are keyed on the code that read them (the contract model), so
 * another version’s are never used.
 */
export interface ContractCache {
  /** The contracts stored for `file` with exactly this content `hash`; `null` when there are none. */
  get: (file: string, hash: string) => Contract[] | null
  /** Store what `file` with content `hash` holds. */
  set: (file: string, hash: string, contracts: Contract[]) => void
  /** The graph stored for `GRAPH.json` or `GRAPH.md` with exactly this content `hash`; `null` when there is none. */
  getGraph: (file: string, hash: string) => FolderGraph | null
  /** Store the graph read from `GRAPH.json` or `GRAPH.md` with content `hash`: a graph with problems is not stored, so none is lost. */
  setGraph: (file: string, hash: string, graph: FolderGraph) => void
  /** Write the cache when it changed: best effort, with a warning when it cannot be written. */
  save: () => Promise<void>
}

/** What one line of warning goes to. */
export type Warn = (message: string) => void

/** Largest cache read or written: one larger is not written (with a warning) and each run parses the contracts. */
const cacheLimit = 64 * 1024 * 1024

/** One file’s contracts, or a graph’s slices, as stored. */
interface StoredFile {
  hash: string
  contracts?: Contract[]
  graph?: FolderGraph
}

/**
 * The user’s cache folder for `tiers`: `$XDG_CACHE_HOME/verification-tiers`,
 * else the platform’s (`~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`).
 */
export function userCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  let base: string
  if (xdg && path.isAbsolute(xdg)) base = xdg
  else if (process.platform === 'win32' && env.LOCALAPPDATA) base = env.LOCALAPPDATA
  else if (process.platform === 'darwin') base = path.join(os.homedir(), 'Library', 'Caches')
  else base = path.join(os.homedir(), '.cache')
  return path.join(base, 'verification-tiers')
}

/** The cache file of the project in `dir`: one per project folder, named by a hash of its real path. */
export async function cachePath(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const real = await realpath(dir).catch(() => path.resolve(dir))
  return path.join(userCacheFolder(env), 'contracts', `${hashText(real).slice(0, 32)}.json`)
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The cache’s hash of a contract file read with graph names: the names change
 * which headings are contracts, so contracts read with other names are not
 * these (names compared as the reader compares them: case, space and dashes aside).
 */
export function hashContractText(text: string, names: Iterable<string> = []): string {
  const folded = [...new Set([...names].map(foldContractName).filter((name) => name !== ''))].sort()
  return folded.length === 0 ? hashText(text) : createHash('sha256').update(text).update('\0names\0' + folded.join('\n')).digest('hex')
}

/** Warnings already given by this process: each is said once. */
const warned = new Set<string>()

/** The project’s contracts cache for this run (see `ContractCache`). Set `TIERS_NO_CACHE` for none. */
export async function openCache(dir: string, warn: Warn): Promise<ContractCache> {
  if (process.env.TIERS_NO_CACHE) return noCache
  const model = modelHash()
  const file = await cachePath(dir)
  const stored = await readStored(file, model)
  const next: Record<string, StoredFile> = {}
  let changed = false
  // An entry for another content, or not of the shape written, is read again.
  const entryFor = (name: string, hash: string): StoredFile | null => {
    const entry = Object.hasOwn(stored, name) ? stored[name] : undefined
    if (isRecord(entry) && entry.hash === hash) return entry as unknown as StoredFile
    if (entry !== undefined) changed = true
    return null
  }
  const keep = <Value>(name: string, entry: StoredFile | null, value: Value | undefined, shaped: (value: unknown) => boolean): Value | null => {
    if (entry === null) return null
    if (!shaped(value)) {
      changed = true
      return null
    }
    next[name] = entry
    return value as Value
  }
  return {
    get: (name, hash) => {
      const entry = entryFor(name, hash)
      return keep(name, entry, entry?.contracts, isStoredContracts)
    },
    set(name, hash, contracts) {
      next[name] = {hash, contracts}
      changed = true
    },
    getGraph: (name, hash) => {
      const entry = entryFor(name, hash)
      return keep(name, entry, entry?.graph, isStoredGraph)
    },
    setGraph(name, hash, graph) {
      if (graph.problems.length > 0) return
      next[name] = {hash, graph}
      changed = true
    },
    async save() {
      if (!changed && Object.keys(stored).every((name) => Object.hasOwn(next, name))) return
      const text = JSON.stringify({model, dir: path.resolve(dir), files: next})
      const once = (message: string) => {
        if (warned.has(message)) return
        warned.add(message)
        warn(message)
      }
      if (text.length > cacheLimit) {
        once(`${file}: not written, as it would be ${formatSize(text.length)}, expected at most ${formatSize(cacheLimit)}; each run parses the contracts again`)
        return
      }
      try {
        // The user's own folder, where a link (a cache moved to another disk) is theirs to make.
        await mkdir(path.dirname(file), {recursive: true}).catch((error: unknown) => {
          throw writeFailure(path.dirname(file), error)
        })
        await writeOwnFile(file, text)
      } catch (error) {
        once(`${firstLine(error)}; each run parses the contracts again`)
      }
    }
  }
}

const noCache: ContractCache = {get: () => null, set: () => {}, getGraph: () => null, setGraph: () => {}, save: async () => {}}

/** Contracts as they were stored: a damaged file (cut short, edited by hand) is read again rather than trusted. */
function isStoredContracts(value: unknown): boolean {
  return Array.isArray(value) && value.every((contract) => isRecord(contract) && (typeof contract.id === 'string' || contract.id === null) && isRecord(contract.position) && Array.isArray(contract.criteria))
}

/** A stored graph of the shape a reader gives: slices and no problems. */
function isStoredGraph(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.slices) && Array.isArray(value.problems) && value.problems.length === 0 && typeof value.file === 'string' && (value.from === 'GRAPH.md' || value.from === 'GRAPH.json')
}

/** The stored entries when the cache is of this model; none when it is missing, unreadable or another version’s. */
async function readStored(file: string, model: string): Promise<Record<string, unknown>> {
  let text: string | undefined
  try {
    text = await readInputFile(file, {limit: cacheLimit})
  } catch {
    // A cache that cannot be read (too large, not a file) is rebuilt; writing it says what is wrong.
    return {}
  }
  if (text === undefined) return {}
  const parsed = parseJson(text)
  if (!parsed.ok || !isRecord(parsed.value)) return {}
  const {model: storedModel, files} = parsed.value
  return storedModel === model && isRecord(files) ? files : {}
}

let model: string | undefined

/**
 * A hash of the code that reads contracts and graphs: every module of the
 * contracts and graph packages as built, and the gate’s parser. Any change
 * to the model, even without a new version, makes every stored entry
 * another model’s. Taken once per process, with synchronous reads: the
 * command waits for it anyway, and some fifty small files read at once cost
 * a third of what a promise for each does.
 */
function modelHash(): string {
  model ??= hashCode([
    ...codeFiles(path.dirname(createRequire(import.meta.url).resolve('@verification-tiers/contracts'))),
    ...codeFiles(path.dirname(createRequire(import.meta.url).resolve('@verification-tiers/graph'))),
    fileURLToPath(new URL('./parse.js', import.meta.url))
  ])
  return model
}

function hashCode(files: readonly string[]): string {
  const hash = createHash('sha256')
  for (const file of files) {
    // A file that is not there hashes as missing: the cache then goes stale, and nothing fails.
    let code: Buffer | string
    try {
      code = readFileSync(file)
    } catch {
      code = 'missing'
    }
    hash.update(file.split(path.sep).slice(-3).join('/')).update('\0').update(code).update('\0')
  }
  return hash.digest('hex')
}

/** The `.js` files under `folder`, sorted, found with a loop. */
function codeFiles(folder: string): string[] {
  const found: string[] = []
  const folders = [folder]
  for (let next = folders.pop(); next !== undefined; next = folders.pop()) {
    for (const entry of readdirSync(next, {withFileTypes: true})) {
      const full = path.join(next, entry.name)
      if (entry.isDirectory()) folders.push(full)
      else if (entry.isFile() && entry.name.endsWith('.js')) found.push(full)
    }
  }
  return found.sort()
}
