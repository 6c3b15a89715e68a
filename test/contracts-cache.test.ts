/**
 * The contracts cache: what `tiers` read of each contract file and of the
 * graph (`GRAPH.json`, `GRAPH.md`), by content hash, kept in the user’s cache folder
 * (`$XDG_CACHE_HOME/verification-tiers/contracts/`), outside the project.
 * Whatever is written in the project cannot lower a tier through it; a
 * damaged entry or one of another model is read again; a cache that cannot
 * be written is said once on stderr.
 *
 * Each scenario runs `tiers` (the cli's `main`, in the test process) in a temporary copy of
 * `content/examples/greenlight-project`, with a cache folder of its own.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, exampleWarning} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []
const warning = exampleWarning

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of the example project whose test command passes, and a cache folder of its own. */
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-cache-', 'true')

const userCache = (folder: string) => path.join(folder, 'user-cache')
const tiers = (folder: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
  runTiers(folder, args, '', {XDG_CACHE_HOME: userCache(folder), TIERS_NO_CACHE: undefined, ...env})

interface StoredContract {
  name: string
  tier: string | null
  effectiveTier: string
  position: unknown
  [field: string]: unknown
}
interface Cache {
  model: string
  dir: string
  files: Record<string, {hash: string; contracts?: StoredContract[]; graph?: {slices: Array<{id: string; name: string; tier: string | null}>}}>
}

/** The one cache file of the project (one project per cache folder here). */
async function cacheFile(folder: string): Promise<string> {
  const contracts = path.join(userCache(folder), 'verification-tiers', 'contracts')
  const names = await fs.readdir(contracts)
  if (names.length !== 1) throw new Error(`Unexpected cache files ${names.join(', ')}, expected one`)
  return path.join(contracts, names[0]!)
}

async function readCache(folder: string): Promise<Cache> {
  return JSON.parse(await fs.readFile(await cacheFile(folder), 'utf8')) as Cache
}

async function editCache(folder: string, change: (cache: Cache) => void): Promise<void> {
  const cache = await readCache(folder)
  change(cache)
  await fs.writeFile(await cacheFile(folder), JSON.stringify(cache))
}

/** The checkpoint of S-01 on a fresh passing run: the human is asked. */
const asksTheHuman = /^ALL TESTS PASSING — Slice S-01: Campaign Cards\n\nPlease verify the output matches your intent\./

describe('the contracts cache', () => {
  it.concurrent('is kept in the user’s cache folder, one file per project, keyed on the model; nothing is written in the project', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['status'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    const cache = await readCache(folder)
    // The model is a hash of the contracts package’s code, not its version (0.0.0 throughout development).
    expect({model: cache.model, dir: cache.dir}).toEqual({model: expect.stringMatching(/^[\da-f]{64}$/), dir: path.join(folder, '.greenlight')})
    expect(Object.keys(cache.files)).toEqual(['GRAPH.json', 'CONTRACTS.md', path.join('contracts', 'C-06.md')])
    expect(cache.files['CONTRACTS.md']!.contracts![0]!.position).toEqual({start: {line: 8, column: 1, offset: 208}, end: {line: 45, column: 23, offset: 1084}})
    await expect(fs.readdir(path.join(folder, '.greenlight', 'tiers'))).rejects.toThrow()
  })

  it.concurrent('an unchanged file is read from the cache, an edited one from the file', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['contracts'])).code).toBe(0)
    // A stored name shows only when the entry is used.
    await editCache(folder, (cache) => {
      cache.files['CONTRACTS.md']!.contracts![0]!.name = 'Stored Name'
    })
    const names = async () => ((JSON.parse((await tiers(folder, ['contracts', '--json'])).stdout) as {contracts: Array<{name: string}>}).contracts.map((contract) => contract.name)).slice(0, 2)
    expect(await names()).toEqual(['Stored Name', 'CampaignSummaryApi'])
    await fs.appendFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), '\n')
    expect(await names()).toEqual(['CampaignCardGrid', 'CampaignSummaryApi'])
  })

  it.concurrent('keeps contracts without ids too (named by their headings), used while the file is unchanged', async ({expect}) => {
    const folder = await project()
    const dir = path.join(folder, '.greenlight')
    await fs.writeFile(path.join(dir, 'CONTRACTS.md'), '## Tea\n\n### Kettle\n\n**Verification:** verify\n\n**Acceptance Criteria:**\n\n- The water boils within three minutes\n')
    await fs.rm(path.join(dir, 'contracts'), {recursive: true, force: true})
    await fs.writeFile(path.join(dir, 'GRAPH.json'), JSON.stringify({slices: {'S-01': {name: 'Tea', contracts: ['Kettle']}}}))
    const names = async () => (JSON.parse((await tiers(folder, ['contracts', '--json'])).stdout) as {contracts: Array<{id: string | null; name: string}>}).contracts.map((contract) => [contract.id, contract.name])
    expect(await names()).toEqual([[null, 'Kettle']])
    await editCache(folder, (cache) => {
      cache.files['CONTRACTS.md']!.contracts![0]!.name = 'Stored Kettle'
    })
    // The stored entry is what the run shows: it was not read again.
    expect(await names()).toEqual([[null, 'Stored Kettle']])
  })

  it.concurrent('a cache file written in the project, lowering every tier, is never read: the checkpoint still asks the human', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const forged = await readCache(folder)
    for (const entry of Object.values(forged.files)) for (const contract of entry.contracts ?? []) Object.assign(contract, {tier: 'auto', effectiveTier: 'auto'})
    // Where the cache was once kept, and anywhere else in the project: tiers reads none of them.
    await fs.writeFile(path.join(folder, '.greenlight', 'tiers', '.contracts-cache.json'), JSON.stringify(forged))
    const run = await tiers(folder, ['checkpoint', 'S-01'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    expect(run.stdout).toMatch(asksTheHuman)
  })

  it.concurrent('a damaged entry is read again from the file, and the cache rewritten', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const honest = await readCache(folder)
    const broken: Array<(contract: StoredContract) => void> = [
      (contract) => (contract.position = null),
      (contract) => (contract.criteria = 'three'),
      (contract) => delete contract.id
    ]
    for (const breakIt of broken) {
      await editCache(folder, (cache) => breakIt(cache.files['CONTRACTS.md']!.contracts![0]!))
      expect(await tiers(folder, ['status'])).toEqual(first)
      expect(await readCache(folder)).toEqual(honest)
    }
    // A file cut short is no cache at all.
    const text = await fs.readFile(await cacheFile(folder), 'utf8')
    await fs.writeFile(await cacheFile(folder), text.slice(0, text.length / 2))
    expect(await tiers(folder, ['status'])).toEqual(first)
    expect(await readCache(folder)).toEqual(honest)
  })

  it.concurrent('a cache of another model is read again', async ({expect}) => {
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
    // The cache folder cannot be made: its parent is a file.
    await fs.writeFile(userCache(folder), 'not a folder')
    const run = await tiers(folder, ['status'])
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/^tiers: warning: .*user-cache.*ENOTDIR.*; each run parses the contracts again\n/)
    expect(run.stderr.split('\n').filter((line) => line.includes('each run parses'))).toHaveLength(1)
    expect(run.stdout).toBe((await tiers(await project(), ['status'])).stdout)
  })

  it.concurrent('TIERS_NO_CACHE: no cache, no warning', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['status'], {TIERS_NO_CACHE: '1'})
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: warning})
    await expect(fs.access(userCache(folder))).rejects.toThrow()
  })

  it.concurrent('keeps a GRAPH.json read as its slices, used while the file is unchanged', async ({expect}) => {
    const folder = await project()
    const graphFile = path.join(folder, '.greenlight', 'GRAPH.json')
    const first = await tiers(folder, ['status'])
    expect(first.code).toBe(0)
    expect((await readCache(folder)).files['GRAPH.json']!.graph!.slices.map((slice) => [slice.id, slice.tier])).toEqual([
      ['S-01', null],
      ['S-02', null]
    ])
    // A stored name shows only when the entry is used.
    await editCache(folder, (cache) => {
      cache.files['GRAPH.json']!.graph!.slices[0]!.name = 'Stored Cards'
    })
    expect((await tiers(folder, ['status'])).stdout).toBe(first.stdout.replace('S-01 Campaign Cards:', 'S-01 Stored Cards:'))
    // An edited graph is read again, as is a damaged entry.
    await fs.appendFile(graphFile, '\n')
    expect(await tiers(folder, ['status'])).toEqual(first)
    await editCache(folder, (cache) => {
      ;(cache.files['GRAPH.json']!.graph as unknown as {slices: unknown}).slices = 'none'
    })
    expect(await tiers(folder, ['status'])).toEqual(first)
  })

  it('keeps a GRAPH.md read as its slices, used while the file is unchanged', async ({expect}) => {
    const folder = await project()
    // The example's slices, written as a GRAPH.md instead of its GRAPH.json.
    await fs.rm(path.join(folder, '.greenlight', 'GRAPH.json'))
    const graphFile = path.join(folder, '.greenlight', 'GRAPH.md')
    await fs.writeFile(graphFile, '## S-01: Campaign Cards\n\n- Contracts: C-01, C-02, C-03\n- Tier: verify\n')
    const first = await tiers(folder, ['status', '--json'])
    expect(first.code).toBe(0)
    expect((await readCache(folder)).files['GRAPH.md']!.graph!.slices.map((slice) => [slice.id, slice.tier])).toEqual([['S-01', 'verify']])
    expect((await tiers(folder, ['status', '--json'])).stdout).toBe(first.stdout)
    // A damaged graph entry is read again.
    await editCache(folder, (cache) => {
      ;(cache.files['GRAPH.md']!.graph as unknown as {slices: unknown}).slices = 'none'
    })
    expect((await tiers(folder, ['status', '--json'])).stdout).toBe(first.stdout)
  })
})
