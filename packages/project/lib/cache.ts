import {createHash} from 'node:crypto'
import {readdir, readFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Contract} from '@verification-tiers/contracts'
import type {FolderGraph} from '@verification-tiers/graph'
import {foldContractName} from '@verification-tiers/contracts/terms'
import {formatSize, keyedDigest, parseJson, prepareOwnFolder, readInputFile, sameDigest, stateFolder, storedContracts, userKey, writeOwnFile} from '@verification-tiers/runtime'
import {firstLine} from './errors.js'

/**
 * Contracts already read, by file and content hash, so a command does not
 * parse an unchanged contract file again. A derived cache, trusted for
 * nothing: each entry carries a keyed digest (HMAC-SHA256, under a key of
 * the user’s kept outside the project) of the model, the file, its hash and
 * its contracts, and is used only when the digest verifies and every field
 * has the model’s shape. An edited entry (a tier set to `auto`) or a broken
 * one is parsed again and rewritten; without a usable key there is no cache.
 */
export interface ContractCache {
  /** The contracts stored for `file` with exactly this content `hash`, verified and checked; `null` when there are none. */
  get: (file: string, hash: string) => Contract[] | null
  /** Store what `file` with content `hash` holds. */
  set: (file: string, hash: string, contracts: Contract[]) => void
  /** The graph stored for `GRAPH.md` with exactly this content `hash`, verified; `null` when there is none. */
  getGraph: (file: string, hash: string) => FolderGraph | null
  /** Store the graph read from `GRAPH.md` with content `hash`: a graph with problems is not stored, so none is lost. */
  setGraph: (file: string, hash: string, graph: FolderGraph) => void
  /** Write the cache when it changed: best effort, with a warning when it cannot be written. */
  save: () => Promise<void>
}

/** What one line of warning goes to. */
export type Warn = (message: string) => void

/** The cache’s layout: goes up whenever what it stores or how changes. */
const schema = 4

/** Largest cache read or written: one larger is not written (with a warning) and each run parses the contracts. */
const cacheLimit = 64 * 1024 * 1024

/** One file’s contracts (or, for a graph, its slices) as stored. */
interface StoredFile {
  hash: string
  contracts?: unknown
  graph?: unknown
  digest: string
}

export function cachePath(dir: string): string {
  return path.join(dir, stateFolder, '.contracts-cache.json')
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
  const once = (message: string) => {
    if (warned.has(message)) return
    warned.add(message)
    warn(message)
  }
  if (process.env.TIERS_NO_CACHE) return noCache
  const secret = await userKey()
  if (!secret.ok) {
    once(`no contracts cache, as its key ${secret.file} is unusable: ${secret.problem}; each run parses the contracts again`)
    return noCache
  }
  const model = await modelHash()
  const file = cachePath(dir)
  const stored = await readStored(file, model)
  const next: Record<string, StoredFile> = {}
  let changed = false
  const digestOf = (name: string, hash: string, contracts: unknown) => keyedDigest(secret.key, JSON.stringify([schema, model, name, hash, contracts]))
  return {
    get(name, hash) {
      const entry = Object.hasOwn(stored, name) ? stored[name] : undefined
      if (entry === undefined) return null
      const contracts = verified(entry, hash, (contracts) => digestOf(name, hash, contracts))
      if (contracts) next[name] = entry as StoredFile
      else changed = true
      return contracts
    },
    set(name, hash, contracts) {
      const encoded = storedContracts.encode(contracts)
      next[name] = {hash, contracts: encoded, digest: digestOf(name, hash, encoded)}
      changed = true
    },
    getGraph(name, hash) {
      const entry = Object.hasOwn(stored, name) ? stored[name] : undefined
      if (!isRecord(entry) || entry.hash !== hash || typeof entry.digest !== 'string') return null
      // The digest covers the graph under the user's key: an entry that verifies is one this user's tiers wrote.
      const graph = sameDigest(entry.digest, digestOf(name, hash, {graph: entry.graph})) && isStoredGraph(entry.graph) ? entry.graph : null
      if (graph) next[name] = entry as unknown as StoredFile
      else changed = true
      return graph
    },
    setGraph(name, hash, graph) {
      if (graph.problems.length > 0) return
      next[name] = {hash, graph, digest: digestOf(name, hash, {graph})}
      changed = true
    },
    async save() {
      if (!changed && Object.keys(stored).every((name) => Object.hasOwn(next, name))) return
      const text = JSON.stringify({schema, model, files: next})
      if (text.length > cacheLimit) {
        once(`${file}: not written, as it would be ${formatSize(text.length)}, expected at most ${formatSize(cacheLimit)}; each run parses the contracts again`)
        return
      }
      try {
        await prepareOwnFolder(file)
        await writeOwnFile(file, text)
      } catch (error) {
        once(`${firstLine(error)}; each run parses the contracts again`)
      }
    }
  }
}

const noCache: ContractCache = {get: () => null, set: () => {}, getGraph: () => null, setGraph: () => {}, save: async () => {}}

/** A stored graph of the shape a reader gives: slices and no problems. */
function isStoredGraph(value: unknown): value is FolderGraph {
  return isRecord(value) && Array.isArray(value.slices) && Array.isArray(value.problems) && value.problems.length === 0 && typeof value.file === 'string' && value.from === 'GRAPH.md'
}

/** The stored entries when the cache is of this schema and model; none when it is missing, unreadable or another’s. */
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
  const {schema: storedSchema, model: storedModel, files} = parsed.value
  return storedSchema === schema && storedModel === model && isRecord(files) ? files : {}
}

/** The contracts of a stored entry for content `hash`, when its digest verifies and they have the model’s shape; else `null`. */
function verified(entry: unknown, hash: string, digestOf: (contracts: unknown) => string): Contract[] | null {
  if (!isRecord(entry) || entry.hash !== hash || typeof entry.digest !== 'string') return null
  if (!sameDigest(entry.digest, digestOf(entry.contracts))) return null
  try {
    return storedContracts.decode(entry.contracts, '')
  } catch {
    return null
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

let model: Promise<string> | undefined

/**
 * A hash of the code that reads contracts and graphs: every module of the
 * contracts and graph packages as built, and the gate’s parser. Any change to the model, even
 * without a new version, makes every stored entry another model’s. Taken
 * once per process.
 */
function modelHash(): Promise<string> {
  model ??= hashCode([
    codeFiles(path.dirname(createRequire(import.meta.url).resolve('@verification-tiers/contracts'))),
    codeFiles(path.dirname(createRequire(import.meta.url).resolve('@verification-tiers/graph'))),
    Promise.resolve([fileURLToPath(new URL('./parse.js', import.meta.url))])
  ])
  return model
}

async function hashCode(lists: Array<Promise<string[]>>): Promise<string> {
  const files = (await Promise.all(lists)).flat()
  const hash = createHash('sha256')
  for (const file of files) {
    // A file that is not there hashes as missing: the cache then goes stale, and nothing fails.
    const code = await readFile(file).catch(() => 'missing')
    hash.update(file.split(path.sep).slice(-3).join('/')).update('\0').update(code).update('\0')
  }
  return hash.digest('hex')
}

/** The `.js` files under `folder`, sorted, found with a loop. */
async function codeFiles(folder: string): Promise<string[]> {
  const found: string[] = []
  const folders = [folder]
  for (let next = folders.pop(); next !== undefined; next = folders.pop()) {
    for (const entry of await readdir(next, {withFileTypes: true})) {
      const full = path.join(next, entry.name)
      if (entry.isDirectory()) folders.push(full)
      else if (entry.isFile() && entry.name.endsWith('.js')) found.push(full)
    }
  }
  return found.sort()
}
