/**
 * The contracts cache (`.greenlight/tiers/.contracts-cache.json`) is a cache,
 * trusted for nothing: each entry carries an HMAC-SHA256 of its content under
 * a key kept outside the project (`$XDG_CACHE_HOME/verification-tiers/key`),
 * so an edited entry (a tier set to `auto`) fails and is parsed again; an
 * entry of the wrong shape is parsed again; a cache of another model (the
 * contracts package’s code) is parsed again; and a cache that cannot be
 * written, or a key that cannot be used, is said on stderr.
 *
 * Each scenario runs the real bin in a temporary copy of
 * `content/examples/greenlight-project`, with its own key folder.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {createHmac} from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, exampleWarning, runTiers} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []
const warning = exampleWarning

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of the example project whose test command passes, and a key folder of its own. */
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-cache-', 'true')

const keyFolder = (folder: string) => path.join(folder, 'user-cache')
const tiers = (folder: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
  runTiers(folder, args, '', {XDG_CACHE_HOME: keyFolder(folder), TIERS_NO_CACHE: undefined, ...env})

const cacheFile = (folder: string) => path.join(folder, '.greenlight', 'tiers', '.contracts-cache.json')

interface StoredContract {
  tier: string | null
  effectiveTier: string
  position: unknown
  [field: string]: unknown
}
interface Cache {
  schema: number
  model: string
  files: Record<string, {hash: string; contracts: StoredContract[]; digest: string}>
}

async function readCache(folder: string): Promise<Cache> {
  return JSON.parse(await fs.readFile(cacheFile(folder), 'utf8')) as Cache
}

async function editCache(folder: string, change: (cache: Cache) => void): Promise<void> {
  const cache = await readCache(folder)
  change(cache)
  await fs.writeFile(cacheFile(folder), JSON.stringify(cache))
}

/** The checkpoint of S-01 on a fresh passing run: the human is asked. */
const asksTheHuman = /^ALL TESTS PASSING — Slice S-01: Campaign Cards\n\nPlease verify the output matches your intent\./

describe('the contracts cache', () => {
  it.concurrent('keeps the key outside the project, readable by its owner only, and keys entries on the model', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['status'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    const key = path.join(keyFolder(folder), 'verification-tiers', 'key')
    expect(await fs.readFile(key, 'utf8')).toMatch(/^[\da-f]{64}\n$/)
    if (process.platform !== 'win32') expect((await fs.stat(key)).mode & 0o777).toBe(0o600)
    const cache = await readCache(folder)
    // The model is a hash of the contracts package’s code, not its version (0.0.0 throughout development).
    expect({schema: cache.schema, model: cache.model}).toEqual({schema: 4, model: expect.stringMatching(/^[\da-f]{64}$/)})
    expect(Object.keys(cache.files)).toEqual(['CONTRACTS.md', path.join('contracts', 'C-06.md')])
    for (const entry of Object.values(cache.files)) expect(entry.digest).toMatch(/^[\da-f]{64}$/)
    // Positions as six numbers.
    expect(cache.files['CONTRACTS.md']!.contracts[0]!.position).toEqual([8, 1, 208, 45, 23, 1084])
  })

  it.concurrent('an entry edited to lower a tier is parsed again: the checkpoint still asks the human', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const honest = await readCache(folder)
    await editCache(folder, (cache) => {
      for (const entry of Object.values(cache.files)) {
        for (const contract of entry.contracts) Object.assign(contract, {tier: 'auto', effectiveTier: 'auto'})
      }
    })
    const run = await tiers(folder, ['checkpoint', 'S-01'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    expect(run.stdout).toMatch(asksTheHuman)
    // Rewritten as it was.
    expect(await readCache(folder)).toEqual(honest)
  })

  it.concurrent('an entry from another key (another user, or a forged digest) is parsed again', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['verify', 'S-01'])).code).toBe(0)
    await editCache(folder, (cache) => {
      const entry = cache.files['CONTRACTS.md']!
      for (const contract of entry.contracts) Object.assign(contract, {tier: 'auto', effectiveTier: 'auto'})
      entry.digest = createHmac('sha256', 'a key that is not the user’s').update(JSON.stringify([cache.schema, cache.model, 'CONTRACTS.md', entry.hash, entry.contracts])).digest('hex')
    })
    const run = await tiers(folder, ['checkpoint', 'S-01'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(asksTheHuman)
  })

  it.concurrent('a corrupt entry with a matching hash is parsed again: exit 0, and the cache is rewritten', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const honest = await readCache(folder)
    await editCache(folder, (cache) => {
      cache.files['CONTRACTS.md']!.contracts[0]!.position = null
    })
    expect(await tiers(folder, ['status'])).toEqual(first)
    expect(await readCache(folder)).toEqual(honest)
  })

  it.concurrent('an entry of the wrong shape is parsed again, even with a valid digest', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const key = Buffer.from((await fs.readFile(path.join(keyFolder(folder), 'verification-tiers', 'key'), 'utf8')).trim(), 'hex')
    const honest = await readCache(folder)
    const broken: Array<(contract: StoredContract) => void> = [
      (contract) => (contract.position = {start: {line: 8}, end: {line: 45}}),
      (contract) => (contract.position = [8, 1, 208, 45, 23]),
      (contract) => (contract.effectiveTier = 'sometimes'),
      (contract) => (contract.criteria = 'three'),
      (contract) => (contract.extra = true),
      (contract) => delete contract.label
    ]
    for (const breakIt of broken) {
      await editCache(folder, (cache) => {
        const entry = cache.files['CONTRACTS.md']!
        breakIt(entry.contracts[0]!)
        entry.digest = createHmac('sha256', key).update(JSON.stringify([cache.schema, cache.model, 'CONTRACTS.md', entry.hash, entry.contracts])).digest('hex')
      })
      expect(await tiers(folder, ['status'])).toEqual(first)
      expect(await readCache(folder)).toEqual(honest)
    }
  })

  it.concurrent('a cache of another model is parsed again', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const honest = await readCache(folder)
    await editCache(folder, (cache) => {
      cache.model = '0'.repeat(64)
      for (const entry of Object.values(cache.files)) entry.contracts = []
    })
    expect(await tiers(folder, ['status'])).toEqual(first)
    expect(await readCache(folder)).toEqual(honest)
  })

  it.concurrent('a cache that cannot be written is said once on stderr; the command still works', async ({expect}) => {
    const folder = await project()
    // A folder where the cache file goes: no user, root included, can write the file there.
    await fs.mkdir(cacheFile(folder), {recursive: true})
    const run = await tiers(folder, ['status'])
    expect({code: run.code, stderr: run.stderr}).toEqual({
      code: 0,
      stderr: `tiers: warning: .greenlight/tiers/.contracts-cache.json: Unexpected folder, expected a regular file; each run parses the contracts again\n${warning}`
    })
    expect(run.stdout).toBe((await tiers(await project(), ['status'])).stdout)
  })

  it.concurrent('no cache without a usable key, and it says so', async ({expect}) => {
    const folder = await project()
    // The key folder cannot be made: its parent is a file.
    await fs.writeFile(keyFolder(folder), 'not a folder')
    const run = await tiers(folder, ['status'])
    const key = path.join(keyFolder(folder), 'verification-tiers', 'key')
    expect({code: run.code, stderr: run.stderr}).toEqual({
      code: 0,
      stderr: `tiers: warning: no contracts cache, as its key ${key} is unusable: it cannot be made or read (ENOTDIR); each run parses the contracts again\n${warning}`
    })
    await expect(fs.access(cacheFile(folder))).rejects.toThrow()
  })

  it.skipIf(process.platform === 'win32').concurrent('a key others could read or change is not used', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['status'])).code).toBe(0)
    const key = path.join(keyFolder(folder), 'verification-tiers', 'key')
    await fs.chmod(key, 0o644)
    await editCache(folder, (cache) => {
      for (const entry of Object.values(cache.files)) for (const contract of entry.contracts) Object.assign(contract, {tier: 'auto', effectiveTier: 'auto'})
    })
    const run = await tiers(folder, ['status'])
    expect(run.stderr).toBe(
      `tiers: warning: no contracts cache, as its key ${key} is unusable: others may read or change it (it must be yours, mode 600); each run parses the contracts again\n${warning}`
    )
    expect(run.stdout).toContain('S-01 Campaign Cards: verify')
  })

  it.concurrent('TIERS_NO_CACHE: no cache, no key, no warning', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['status'], {TIERS_NO_CACHE: '1'})
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    await expect(fs.access(cacheFile(folder))).rejects.toThrow()
    await expect(fs.access(keyFolder(folder))).rejects.toThrow()
  })

  it('keeps a GRAPH.md read as its slices, used while the file is unchanged and never when its entry was edited', async ({expect}) => {
    const folder = await project()
    // The example's slices, written as a GRAPH.md instead of its GRAPH.json.
    await fs.rm(path.join(folder, '.greenlight', 'GRAPH.json'))
    await fs.writeFile(path.join(folder, '.greenlight', 'GRAPH.md'), '## S-01: Campaign Cards\n\n- Contracts: C-01, C-02, C-03\n- Tier: verify\n')
    const first = await tiers(folder, ['status', '--json'])
    expect(first.code).toBe(0)
    const stored = (await readCache(folder)).files['GRAPH.md'] as unknown as {graph: {slices: Array<{id: string; tier: string | null}>}}
    expect(stored.graph.slices.map((slice) => [slice.id, slice.tier])).toEqual([['S-01', 'verify']])
    expect((await tiers(folder, ['status', '--json'])).stdout).toBe(first.stdout)
    // An entry edited to make the slice auto does not verify under the key: the file is read again.
    await editCache(folder, (cache) => {
      const entry = cache.files['GRAPH.md'] as unknown as {graph: {slices: Array<{tier: string | null}>}}
      entry.graph.slices[0]!.tier = 'auto'
    })
    expect((await tiers(folder, ['status', '--json'])).stdout).toBe(first.stdout)
  })
})
