import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {lstat, mkdir, readdir, rm, stat, utimes} from 'node:fs/promises'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Contract} from '@verification-tiers/contracts'
import type {FolderGraph, Graph} from '@verification-tiers/graph'
import {foldContractName} from '@verification-tiers/contracts/gate-terms'
import isRecord from 'is-plain-obj'
import {formatSize, parseJson, readInputFile, writeFailure, writeOwnFile} from '@verification-tiers/runtime'
import {firstLine} from './errors.js'

/**
 * What was read of each contract file and of the graph (`GRAPH.json`,
 * `GRAPH.md`), found by the hash of the text it was read from, so a command
 * does not read an unchanged file again, in this folder or in any copy of
 * the project (a git worktree, a checkout in CI). It is kept in the user’s
 * cache folder, outside every project, so no project or checkout carries
 * entries. On the machine where a coding agent runs, the agent can write
 * that folder as it can write the installed code: the merge gate (`tiers
 * ci`, on a fresh runner) reads no cache (`loadProject`'s `cache: false`).
 * Entries are kept under the code
 * that read them (the contract model), so another version’s are never used;
 * no path is part of an entry.
 */
export interface ContractCache {
  /** The contracts stored for a contract file whose text (with the graph’s names) hashes to `hash` (`hashContractText`); `null` when there are none. */
  get: (hash: string) => Promise<Contract[] | null>
  /** Store what a contract file whose text hashes to `hash` holds. */
  set: (hash: string, contracts: Contract[]) => void
  /** The graph stored for a `from` file (`GRAPH.json` or `GRAPH.md`) whose text hashes to `hash`, naming `file`; `null` when there is none. */
  getGraph: (from: FolderGraph['from'], hash: string, file: string) => Promise<FolderGraph | null>
  /** Store the graph read from a file whose text hashes to `hash`: a graph with problems is not stored, so none is lost. */
  setGraph: (hash: string, graph: FolderGraph) => void
  /** Write the entries this run made, then keep the cache under its bound: best effort, with one warning when it cannot be written. */
  save: () => Promise<void>
}

/** What one line of warning goes to. */
export type Warn = (message: string) => void

/** Largest entry read or written: one larger is not written (with a warning) and each run reads its file again. */
const entryLimit = 16 * 1024 * 1024

/** Size the folder of one model is kept under: least recently used entries go first. */
const modelFolderLimit = 64 * 1024 * 1024

/** An entry used after this long is marked used again (its time set to now), so that it is not the first to go. */
const refreshAfter = 24 * 60 * 60 * 1000

/** Another model’s folder unused this long is removed: the code that wrote it is gone, or not used any more. */
const otherModelAge = 7 * 24 * 60 * 60 * 1000

/** What an entry holds: contracts of one file, or the slices of a graph read from `GRAPH.json` or `GRAPH.md`. */
type EntryKind = 'contracts' | 'graph-json' | 'graph-md'

/** One entry as written: what it is of and from, so that a file renamed or copied by hand is not taken for another. */
interface StoredEntry {
  model: string
  kind: EntryKind
  hash: string
  contracts?: Contract[]
  graph?: Omit<Graph, 'file'>
}

/**
 * The user’s cache folder for `tiers`: `$XDG_CACHE_HOME/verification-tiers`,
 * else the platform’s (`~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`).
 */
function userCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  let base: string
  if (xdg && path.isAbsolute(xdg)) base = xdg
  else if (process.platform === 'win32' && env.LOCALAPPDATA) base = env.LOCALAPPDATA
  else if (process.platform === 'darwin') base = path.join(os.homedir(), 'Library', 'Caches')
  else base = path.join(os.homedir(), '.cache')
  return path.join(base, 'verification-tiers')
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
  return folded.length === 0
    ? hashText(text)
    : createHash('sha256')
        .update(text)
        .update('\0names\0' + folded.join('\n'))
        .digest('hex')
}

/** Warnings already given by this process: each is said once. */
const warned = new Set<string>()

const graphKinds: Record<FolderGraph['from'], EntryKind> = {'GRAPH.json': 'graph-json', 'GRAPH.md': 'graph-md'}

/** The contracts cache for this run (see `ContractCache`): none when `use` is false or `TIERS_NO_CACHE` is set. */
export function openCache(warn: Warn, {use = true}: {use?: boolean} = {}): ContractCache {
  if (!use || process.env.TIERS_NO_CACHE) return noCache
  const model = modelHash()
  // One folder per model in the user's cache folder.
  const root = path.join(userCacheFolder(), 'contracts')
  const folder = path.join(root, model.slice(0, 16))
  const made = new Map<string, StoredEntry>()
  const entryFile = (kind: EntryKind, hash: string) => path.join(folder, `${kind}-${hash}.json`)
  /** The stored entry of `kind` and `hash` when it is whole, of this model and of the shape written; else `null`, and the file is read again. */
  const read = async (kind: EntryKind, hash: string): Promise<StoredEntry | null> => {
    if (!/^[\da-f]{64}$/.test(hash)) return null
    const file = entryFile(kind, hash)
    const text = await readInputFile(file, {limit: entryLimit}).catch(() => undefined)
    if (text === undefined) return null
    const parsed = parseJson(text)
    if (!parsed.ok || !isRecord(parsed.value)) return null
    const entry = parsed.value
    if (entry.model !== model || entry.kind !== kind || entry.hash !== hash) return null
    if (kind === 'contracts' ? !isStoredContracts(entry.contracts) : !isStoredGraph(entry.graph, kind)) return null
    await markUsed(file, folder)
    return entry as unknown as StoredEntry
  }
  return {
    get: async (hash) => (await read('contracts', hash))?.contracts ?? null,
    set(hash, contracts) {
      made.set(`contracts-${hash}`, {model, kind: 'contracts', hash, contracts})
    },
    async getGraph(from, hash, file) {
      const entry = await read(graphKinds[from], hash)
      // The path is the one asked for: the same graph may be in any folder.
      return entry?.graph ? {...entry.graph, file, problems: []} : null
    },
    setGraph(hash, graph) {
      if (graph.problems.length > 0) return
      const kind = graphKinds[graph.from]
      made.set(`${kind}-${hash}`, {model, kind, hash, graph: {from: graph.from, slices: graph.slices}})
    },
    async save() {
      // A run that read everything from the cache writes nothing and prunes nothing.
      if (made.size === 0) return
      // One line for the run, the first thing that went wrong; and each line once for the process.
      let said = false
      const once = (message: string) => {
        if (said || warned.has(message)) return
        said = true
        warned.add(message)
        warn(message)
      }
      try {
        // The user's own folder, where a link (a cache moved to another disk) is theirs to make.
        await mkdir(folder, {recursive: true})
      } catch (error) {
        once(`${firstLine(writeFailure(folder, error))}; each run parses the contracts again`)
        return
      }
      let written = false
      for (const entry of made.values()) {
        const file = entryFile(entry.kind, entry.hash)
        const text = JSON.stringify(entry)
        const size = Buffer.byteLength(text)
        if (size > entryLimit) {
          once(`${file}: not written, as it would be ${formatSize(size)}, expected at most ${formatSize(entryLimit)}; each run parses its file again`)
          continue
        }
        try {
          await writeOwnFile(file, text)
          written = true
        } catch (error) {
          // Each entry stands alone: the others are still written.
          once(`${firstLine(error)}; each run parses the contracts again`)
        }
      }
      if (written) await pruneCache(root, folder, {keepUnder: modelFolderLimit}).catch(() => {})
    }
  }
}

const noCache: ContractCache = {get: async () => null, set: () => {}, getGraph: async () => null, setGraph: () => {}, save: async () => {}}

/** Contracts as they were stored: a damaged entry (cut short, edited by hand) is read again rather than trusted. */
function isStoredContracts(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (contract) =>
        isRecord(contract) &&
        (typeof contract.id === 'string' || contract.id === null) &&
        typeof contract.name === 'string' &&
        typeof contract.label === 'string' &&
        (typeof contract.tier === 'string' || contract.tier === null) &&
        (contract.effectiveTier === 'auto' || contract.effectiveTier === 'verify') &&
        isRecord(contract.position) &&
        isRecord(contract.headingPosition) &&
        Array.isArray(contract.criteria) &&
        Array.isArray(contract.steps) &&
        Array.isArray(contract.fields)
    )
  )
}

/** A stored graph of the shape written for `kind`: its slices, read from the file of that kind. */
function isStoredGraph(value: unknown, kind: EntryKind): boolean {
  return (
    isRecord(value) &&
    Array.isArray(value.slices) &&
    value.slices.every((slice) => isRecord(slice) && typeof slice.id === 'string') &&
    graphKinds[value.from as FolderGraph['from']] === kind
  )
}

/** An entry used now, and its model’s folder: their time set to now when older than a day (a warm run writes at most this). */
async function markUsed(file: string, folder: string): Promise<void> {
  try {
    const now = new Date()
    if (now.getTime() - (await stat(file)).mtimeMs < refreshAfter) return
    await utimes(file, now, now)
    await utimes(folder, now, now)
  } catch {
    // Best effort: an entry not marked may go a little sooner.
  }
}

/**
 * Keep the cache small, after a run wrote entries into `folder`: its entries under `keepUnder` bytes, the least recently used
 * (oldest time) removed first; and the folders of other models under `root`
 * unused for a week removed. Best effort: a file that cannot be seen or
 * removed stays, and nothing is said.
 */
export async function pruneCache(root: string, folder: string, {keepUnder, now = Date.now()}: {keepUnder: number; now?: number}): Promise<void> {
  await Promise.all([pruneModelFolder(folder, keepUnder), pruneOtherModels(root, folder, now)])
}

async function pruneModelFolder(folder: string, keepUnder: number): Promise<void> {
  const names = await readdir(folder).catch(() => [])
  const entries = (
    await Promise.all(
      names.map(async (name) => {
        const file = path.join(folder, name)
        const info = await lstat(file).catch(() => null)
        return info?.isFile() ? {file, size: info.size, time: info.mtimeMs} : null
      })
    )
  ).filter((entry) => entry !== null)
  let total = entries.reduce((sum, entry) => sum + entry.size, 0)
  entries.sort((a, b) => a.time - b.time)
  for (const entry of entries) {
    if (total <= keepUnder) break
    await rm(entry.file, {force: true}).catch(() => {})
    total -= entry.size
  }
}

async function pruneOtherModels(root: string, folder: string, now: number): Promise<void> {
  const entries = await readdir(root, {withFileTypes: true}).catch(() => [])
  for (const entry of entries) {
    const other = path.join(root, entry.name)
    // Only model folders, named as this code names them; anything else in the cache folder is left alone.
    if (!entry.isDirectory() || other === folder || !/^[\da-f]{16}$/.test(entry.name)) continue
    const info = await lstat(other).catch(() => null)
    if (info && now - info.mtimeMs > otherModelAge) await rm(other, {recursive: true, force: true}).catch(() => {})
  }
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
