/**
 * The contracts cache: what `tiers` read of each contract file and of the
 * graph (`GRAPH.json`, `GRAPH.md`), found by the hash of the text it was read
 * from, one file per entry in the user’s cache folder
 * (`$XDG_CACHE_HOME/verification-tiers/contracts/<model>/<kind>-<hash>.json`),
 * outside every project, and shared by every copy of a project. Whatever is
 * written in the project cannot lower a tier through it; a damaged entry or
 * one of another model is read again; a cache that cannot be written is said
 * once on stderr.
 *
 * Each scenario runs `tiers` (the cli's `main`, in the test process) in a temporary copy of
 * `content/examples/greenlight-project`, with a cache folder of its own.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, exampleWarning, root, runProcess} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const folders: string[] = []
// Said by `tiers contracts` only, of the commands here: the example sets the deprecated `workflow.visual_checkpoint`.
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
const tiers = (folder: string, args: string[], env: Record<string, string | undefined> = {}, cache = folder): Promise<Run> =>
  runTiers(folder, args, '', {XDG_CACHE_HOME: userCache(cache), TIERS_NO_CACHE: undefined, ...env})

interface StoredContract {
  id: string | null
  name: string
  tier: string | null
  effectiveTier: string
  position: unknown
  [field: string]: unknown
}
interface Entry {
  model: string
  kind: string
  hash: string
  contracts?: StoredContract[]
  graph?: {from: string; slices: Array<{id: string; name: string; tier: string | null}>; [field: string]: unknown}
}

/** The folder of the one model that wrote in the cache folder of `folder`. */
async function modelFolder(folder: string): Promise<string> {
  const contracts = path.join(userCache(folder), 'verification-tiers', 'contracts')
  const names = await fs.readdir(contracts)
  if (names.length !== 1) throw new Error(`Unexpected model folders ${names.join(', ')}, expected one`)
  return path.join(contracts, names[0]!)
}

/** Every entry of the cache of `folder`, by file name. */
async function readEntries(folder: string): Promise<Record<string, Entry>> {
  const model = await modelFolder(folder)
  const names = (await fs.readdir(model)).sort()
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, JSON.parse(await fs.readFile(path.join(model, name), 'utf8')) as Entry])))
}

/** Which entry: the graph’s, or the contracts’ whose first contract has this id (`C-01`: CONTRACTS.md; `C-06`: contracts/C-06.md) or name. */
type Which = 'graph' | string

const matches = (entry: Entry, which: Which) =>
  which === 'graph' ? entry.graph !== undefined : entry.contracts?.[0]?.id === which || entry.contracts?.[0]?.name === which

/** The file of one entry of the cache of `folder`. */
async function entryFile(folder: string, which: Which): Promise<string> {
  const found = Object.entries(await readEntries(folder)).filter(([, entry]) => matches(entry, which))
  if (found.length !== 1) throw new Error(`Unexpected ${found.length} entries for ${which}, expected one`)
  return path.join(await modelFolder(folder), found[0]![0])
}

async function readEntry(folder: string, which: Which): Promise<Entry> {
  return JSON.parse(await fs.readFile(await entryFile(folder, which), 'utf8')) as Entry
}

async function editEntry(folder: string, which: Which, change: (entry: Entry) => void): Promise<void> {
  const file = await entryFile(folder, which)
  const entry = JSON.parse(await fs.readFile(file, 'utf8')) as Entry
  change(entry)
  await fs.writeFile(file, JSON.stringify(entry))
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')

const recorder = pathToFileURL(path.join(root, 'test', 'helpers', 'record-modules.mjs')).href
/** The markdown parser and its worker. */
const parser = /\/node_modules\/(?:remark-parse|unified|mdast-util-from-markdown|micromark[^/]*)\/|\/packages\/project\/dist\/lib\/parse-worker\.js$/

/** The real bin in `cwd`, with the cache folder of `cache`: its run and every module it loaded. */
async function tiersLoading(cwd: string, args: string[], cache: string, env: Record<string, string | undefined> = {}): Promise<Run & {modules: string[]}> {
  const log = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-cache-modules-')), 'modules.txt')
  folders.push(path.dirname(log))
  await fs.writeFile(log, '')
  const bin = path.join(root, 'packages', 'cli', 'bin', 'tiers.js')
  const run = await runProcess(process.execPath, ['--import', recorder, bin, ...args], {
    cwd,
    env: {TIERS_MAX_BLOCKS: undefined, TIERS_NO_CACHE: undefined, XDG_CACHE_HOME: userCache(cache), ...env, TIERS_TEST_MODULES: log}
  })
  return {...run, modules: [...new Set((await fs.readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('file:')))]}
}

/** The checkpoint of S-01 on a fresh passing run: the human is asked. */
const asksTheHuman = /^ALL TESTS PASSING — Slice S-01: Campaign Cards\n\nPlease verify the output matches your intent\./

describe('the contracts cache', () => {
  it.concurrent('is kept in the user’s cache folder, one file per entry named by its kind and content hash, under the model’s folder; no path of the project in it, nothing written in the project', async ({
    expect
  }) => {
    const folder = await project()
    const dir = path.join(folder, '.greenlight')
    const run = await tiers(folder, ['status'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    const model = await modelFolder(folder)
    // The model is a hash of the contracts package’s code, not its version (the same from one release to the next, throughout development).
    expect(path.basename(model)).toMatch(/^[\da-f]{16}$/)
    const entries = await readEntries(folder)
    const graphText = await fs.readFile(path.join(dir, 'GRAPH.json'))
    expect(Object.keys(entries)).toHaveLength(3)
    expect(entries[`graph-json-${sha256(graphText)}.json`]).toEqual({
      model: expect.stringMatching(new RegExp(`^${path.basename(model)}[\\da-f]{48}$`)),
      kind: 'graph-json',
      hash: sha256(graphText),
      graph: {from: 'GRAPH.json', slices: expect.any(Array)}
    })
    for (const [name, entry] of Object.entries(entries)) {
      expect(name).toBe(`${entry.kind}-${entry.hash}.json`)
      expect(JSON.stringify(entry)).not.toContain(folder)
    }
    // Contract files: their hash takes in the names the graph lists, so it is not the text’s alone.
    const contracts = Object.values(entries).filter((entry) => entry.kind === 'contracts')
    expect(contracts.map((entry) => entry.contracts!.map((contract) => contract.id))).toEqual(
      expect.arrayContaining([['C-01', 'C-02', 'C-03', 'C-04', 'C-05'], ['C-06']])
    )
    expect(contracts.map((entry) => entry.hash)).not.toContain(sha256(await fs.readFile(path.join(dir, 'CONTRACTS.md'))))
    expect((await readEntry(folder, 'C-01')).contracts![0]!.position).toEqual({
      start: {line: 8, column: 1, offset: 208},
      end: {line: 45, column: 23, offset: 1084}
    })
    await expect(fs.readdir(path.join(dir, 'tiers'))).rejects.toThrow()
  })

  it.concurrent('an unchanged file is read from the cache, an edited one from the file', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['contracts'])).code).toBe(0)
    // A stored name shows only when the entry is used.
    await editEntry(folder, 'C-01', (entry) => {
      entry.contracts![0]!.name = 'Stored Name'
    })
    const names = async () =>
      (JSON.parse((await tiers(folder, ['contracts', '--json'])).stdout) as {contracts: Array<{name: string}>}).contracts
        .map((contract) => contract.name)
        .slice(0, 2)
    expect(await names()).toEqual(['Stored Name', 'CampaignSummaryApi'])
    await fs.appendFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), '\n')
    expect(await names()).toEqual(['CampaignCardGrid', 'CampaignSummaryApi'])
  })

  it.concurrent('a copy of the project in another folder reads every file from the cache: the markdown parser is not loaded, and it shows what the files say', async ({
    expect
  }) => {
    const first = await project()
    const second = await project()
    const cold = await tiersLoading(first, ['contracts', '--json'], first)
    expect(cold.code).toBe(0)
    expect(cold.modules.some((url) => parser.test(url))).toBe(true)
    const entries = await readEntries(first)
    // The second copy, with the first one’s cache: no parse, and nothing new written.
    const warm = await tiersLoading(second, ['contracts', '--json'], first)
    expect({code: warm.code, stderr: warm.stderr, parser: warm.modules.filter((url) => parser.test(url))}).toEqual({code: 0, stderr: warning, parser: []})
    expect(await readEntries(first)).toEqual(entries)
    // What it shows is what the second copy's own files say, read without the cache.
    const uncached = await tiers(second, ['contracts', '--json'], {TIERS_NO_CACHE: '1'})
    expect(JSON.parse(warm.stdout)).toEqual(JSON.parse(uncached.stdout))
    // A contract file edited in the second copy is read again, and stored beside the first copy's.
    await fs.appendFile(path.join(second, '.greenlight', 'contracts', 'C-06.md'), '\n')
    const edited = await tiersLoading(second, ['status'], first)
    expect(edited.modules.some((url) => parser.test(url))).toBe(true)
    expect(Object.keys(await readEntries(first))).toEqual(expect.arrayContaining(Object.keys(entries)))
    expect(Object.keys(await readEntries(first))).toHaveLength(Object.keys(entries).length + 1)
  })

  it.concurrent('a graph from the cache names the file it was asked for, in whichever folder', async ({expect}) => {
    const first = await project()
    const second = await project()
    const nested = path.join(second, 'nested')
    await fs.mkdir(nested)
    await fs.rename(path.join(second, '.greenlight'), path.join(nested, '.greenlight'))
    // A graph that lists a contract no file defines: its problem names the graph file.
    for (const dir of [path.join(first, '.greenlight'), path.join(nested, '.greenlight')]) {
      const graph = path.join(dir, 'GRAPH.json')
      await fs.writeFile(graph, (await fs.readFile(graph, 'utf8')).replace('"C-03"]', '"C-03", "C-99"]'))
    }
    const problem = (file: string) =>
      `problem: ${file}:6: Unexpected "C-99" in the contracts of slice S-01, expected the id or name of a contract in CONTRACTS.md or contracts/`
    expect((await tiers(first, ['status'])).stdout).toContain(problem('.greenlight/GRAPH.json'))
    const entries = await readEntries(first)
    // The second copy reads the graph from the first one’s entry (nothing new written), and names its own file.
    const run = await tiers(second, ['status', '--dir', 'nested/.greenlight'], {}, first)
    expect(run.stdout).toContain(problem('nested/.greenlight/GRAPH.json'))
    expect(run.stdout).not.toContain(problem('.greenlight/GRAPH.json'))
    expect(await readEntries(first)).toEqual(entries)
  })

  it.concurrent('keeps contracts without ids too (named by their headings), used while the file is unchanged', async ({expect}) => {
    const folder = await project()
    const dir = path.join(folder, '.greenlight')
    await fs.writeFile(
      path.join(dir, 'CONTRACTS.md'),
      '## Tea\n\n### Kettle\n\n**Verification:** verify\n\n**Acceptance Criteria:**\n\n- The water boils within three minutes\n'
    )
    await fs.rm(path.join(dir, 'contracts'), {recursive: true, force: true})
    await fs.writeFile(path.join(dir, 'GRAPH.json'), JSON.stringify({slices: {'S-01': {name: 'Tea', contracts: ['Kettle']}}}))
    const names = async () =>
      (JSON.parse((await tiers(folder, ['contracts', '--json'])).stdout) as {contracts: Array<{id: string | null; name: string}>}).contracts.map((contract) => [
        contract.id,
        contract.name
      ])
    expect(await names()).toEqual([[null, 'Kettle']])
    await editEntry(folder, 'Kettle', (entry) => {
      entry.contracts![0]!.name = 'Stored Kettle'
    })
    // The stored entry is what the run shows: it was not read again.
    expect(await names()).toEqual([[null, 'Stored Kettle']])
  })

  it.concurrent('the names the graph lists are part of a contract file’s key: with other names, the file is read again', async ({expect}) => {
    const folder = await project()
    const dir = path.join(folder, '.greenlight')
    // A heading that is a contract only when the graph names it.
    await fs.writeFile(path.join(dir, 'CONTRACTS.md'), '## Checkout flow\n\nThe cart becomes an order.\n')
    await fs.rm(path.join(dir, 'contracts'), {recursive: true, force: true})
    const names = async (listed: string) => {
      await fs.writeFile(path.join(dir, 'GRAPH.json'), JSON.stringify({slices: {'S-01': {name: 'Shop', contracts: [listed]}}}))
      return (JSON.parse((await tiers(folder, ['contracts', '--json'])).stdout) as {contracts: Array<{name: string}>}).contracts.map(
        (contract) => contract.name
      )
    }
    expect(await names('Payment')).toEqual([])
    expect(await names('checkout FLOW')).toEqual(['Checkout flow'])
    expect(await names('Payment')).toEqual([])
    expect(Object.values(await readEntries(folder)).filter((entry) => entry.kind === 'contracts')).toHaveLength(2)
  })

  it.concurrent('a cache file written in the project, lowering every tier, is never read: the checkpoint still asks the human', async ({expect}) => {
    const folder = await project()
    expect((await tiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const forged = Object.values(await readEntries(folder))
    for (const entry of forged) for (const contract of entry.contracts ?? []) Object.assign(contract, {tier: 'auto', effectiveTier: 'auto'})
    // Where the cache was once kept, and anywhere else in the project: tiers reads none of them.
    await fs.writeFile(path.join(folder, '.greenlight', 'tiers', '.contracts-cache.json'), JSON.stringify(forged))
    for (const entry of forged) await fs.writeFile(path.join(folder, '.greenlight', 'tiers', `${entry.kind}-${entry.hash}.json`), JSON.stringify(entry))
    const run = await tiers(folder, ['checkpoint', 'S-01'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    expect(run.stdout).toMatch(asksTheHuman)
  })

  it.concurrent('a damaged entry is read again from the file, and rewritten', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const honest = await readEntries(folder)
    const broken: Array<(entry: Entry) => void> = [
      (entry) => (entry.contracts![0]!.position = null),
      (entry) => (entry.contracts![0]!.criteria = 'three'),
      (entry) => delete (entry.contracts![0] as Partial<StoredContract>).id,
      (entry) => (entry.contracts![0]!.effectiveTier = 'none'),
      (entry) => delete entry.contracts,
      // An entry of another file (its hash), or of another kind, is not this one.
      (entry) => (entry.hash = '0'.repeat(64)),
      (entry) => (entry.kind = 'graph-json')
    ]
    // Two damages a run, one in the entry of CONTRACTS.md and one in that of contracts/C-06.md (both files read again in one parse): each entry must be.
    for (let index = 0; index < broken.length; index += 2) {
      await editEntry(folder, 'C-01', broken[index]!)
      if (index + 1 < broken.length) await editEntry(folder, 'C-06', broken[index + 1]!)
      expect(await tiers(folder, ['status'])).toEqual(first)
      expect(await readEntries(folder)).toEqual(honest)
    }
    // A file cut short is no entry at all (CONTRACTS.md's); nor is one too large to read, whatever it holds (C-06.md's).
    const [cut, large] = await Promise.all(['C-01', 'C-06'].map((which) => entryFile(folder, which)))
    const text = await fs.readFile(cut!, 'utf8')
    await fs.writeFile(cut!, text.slice(0, text.length / 2))
    await fs.appendFile(large!, ' '.repeat(16 * 1024 * 1024))
    expect(await tiers(folder, ['status'])).toEqual(first)
    expect(await readEntries(folder)).toEqual(honest)
  })

  it.concurrent('an entry of another model is read again', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const honest = await readEntries(folder)
    for (const which of ['graph', 'C-01', 'C-06']) {
      await editEntry(folder, which, (entry) => {
        entry.model = '0'.repeat(64)
        if (entry.contracts) entry.contracts = []
        else entry.graph!.slices = []
      })
    }
    expect(await tiers(folder, ['status'])).toEqual(first)
    expect(await readEntries(folder)).toEqual(honest)
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

  it.concurrent('an entry that cannot be written (a folder in its place) is said once; the others are written', async ({expect}) => {
    const folder = await project()
    const first = await tiers(folder, ['status'])
    const entries = await readEntries(folder)
    const graphEntry = await entryFile(folder, 'graph')
    // The entries removed, one of them replaced by a folder of its name.
    for (const name of Object.keys(entries)) await fs.rm(path.join(await modelFolder(folder), name))
    await fs.mkdir(graphEntry)
    const run = await tiers(folder, ['status'])
    expect(run.stdout).toBe(first.stdout)
    expect(run.stderr.split('\n').filter((line) => line.includes('each run parses'))).toEqual([
      `tiers: warning: ${graphEntry}: Unexpected folder, expected a regular file; each run parses the contracts again`
    ])
    // The contract files’ entries are written again beside it.
    expect((await fs.readdir(await modelFolder(folder))).sort()).toEqual(Object.keys(entries).sort())
    expect((await fs.stat(graphEntry)).isDirectory()).toBe(true)
  })

  it.concurrent('TIERS_NO_CACHE: no cache, no warning', async ({expect}) => {
    const folder = await project()
    const run = await tiers(folder, ['status'], {TIERS_NO_CACHE: '1'})
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    await expect(fs.access(userCache(folder))).rejects.toThrow()
  })

  it.concurrent('keeps a GRAPH.json read as its slices, used while the file is unchanged', async ({expect}) => {
    const folder = await project()
    const graphFile = path.join(folder, '.greenlight', 'GRAPH.json')
    const first = await tiers(folder, ['status'])
    expect(first.code).toBe(0)
    expect((await readEntry(folder, 'graph')).graph!.slices.map((slice) => [slice.id, slice.tier])).toEqual([
      ['S-01', null],
      ['S-02', null]
    ])
    // A stored name shows only when the entry is used.
    await editEntry(folder, 'graph', (entry) => {
      entry.graph!.slices[0]!.name = 'Stored Cards'
    })
    expect((await tiers(folder, ['status'])).stdout).toBe(first.stdout.replace('S-01 Campaign Cards:', 'S-01 Stored Cards:'))
    // An edited graph is read again, as is a damaged entry.
    await fs.appendFile(graphFile, '\n')
    expect(await tiers(folder, ['status'])).toEqual(first)
    for (const name of Object.keys(await readEntries(folder))) {
      const file = path.join(await modelFolder(folder), name)
      const entry = JSON.parse(await fs.readFile(file, 'utf8')) as Entry
      if (entry.graph) await fs.writeFile(file, JSON.stringify({...entry, graph: {...entry.graph, slices: 'none'}}))
    }
    expect(await tiers(folder, ['status'])).toEqual(first)
  })

  it('keeps a GRAPH.md read as its slices, used while the file is unchanged', async ({expect}) => {
    const folder = await project()
    // The example's slices, written as a GRAPH.md instead of its GRAPH.json.
    await fs.rm(path.join(folder, '.greenlight', 'GRAPH.json'))
    const graphFile = path.join(folder, '.greenlight', 'GRAPH.md')
    const text = '## S-01: Campaign Cards\n\n- Contracts: C-01, C-02, C-03\n- Tier: verify\n'
    await fs.writeFile(graphFile, text)
    const first = await tiers(folder, ['status', '--json'])
    expect(first.code).toBe(0)
    expect(await readEntry(folder, 'graph')).toMatchObject({kind: 'graph-md', hash: sha256(text), graph: {from: 'GRAPH.md'}})
    expect((await readEntry(folder, 'graph')).graph!.slices.map((slice) => [slice.id, slice.tier])).toEqual([['S-01', 'verify']])
    expect((await tiers(folder, ['status', '--json'])).stdout).toBe(first.stdout)
    // A damaged graph entry is read again.
    await editEntry(folder, 'graph', (entry) => {
      ;(entry.graph as unknown as {slices: unknown}).slices = 'none'
    })
    expect((await tiers(folder, ['status', '--json'])).stdout).toBe(first.stdout)
  })
})
