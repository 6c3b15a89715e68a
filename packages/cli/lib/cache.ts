import {createHash} from 'node:crypto'
import {mkdir, readFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import path from 'node:path'
import type {Contract} from '@verification-tiers/contracts'
import {stateFolder} from '@verification-tiers/runtime'
import writeFileAtomic from 'write-file-atomic'

/**
 * Contracts already read, by file and content hash, so a command does not
 * parse an unchanged contract file again. A derived cache: when it is
 * missing, stale or unreadable, the files are parsed and it is rewritten.
 */
export interface ContractCache {
  version: string
  files: Record<string, {hash: string; contracts: Contract[]}>
}

const require = createRequire(import.meta.url)
// A new model may read files differently: its version is part of the key, and the number
// before it goes up whenever the reader changes what it reads.
const modelVersion = (require('@verification-tiers/contracts/package.json') as {version: string}).version
const cacheVersion = `2:${modelVersion}`

export function cachePath(dir: string): string {
  return path.join(dir, stateFolder, '.contracts-cache.json')
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

export async function readCache(dir: string): Promise<ContractCache> {
  const empty: ContractCache = {version: cacheVersion, files: {}}
  if (process.env.TIERS_NO_CACHE) return empty
  try {
    const cache = JSON.parse(await readFile(cachePath(dir), 'utf8')) as ContractCache
    return cache.version === cacheVersion && typeof cache.files === 'object' && cache.files !== null ? cache : empty
  } catch {
    return empty
  }
}

/** Best effort: a project folder that cannot be written still works, only slower. */
export async function writeCache(dir: string, cache: ContractCache): Promise<void> {
  if (process.env.TIERS_NO_CACHE) return
  try {
    await mkdir(path.dirname(cachePath(dir)), {recursive: true})
    await writeFileAtomic(cachePath(dir), JSON.stringify(cache))
  } catch {}
}
