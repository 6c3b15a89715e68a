/**
 * A fast-check property of the contracts cache, which is shared by every copy
 * of a project: for random contract files, random graphs (GRAPH.json,
 * GRAPH.md or none, naming random headings) and several copies of a project
 * in other folders, edited one after another, a project loaded through the
 * cache is the project loaded with `TIERS_NO_CACHE`: the same contracts (in
 * all the cache keeps), files, sources, slices, graph file and problems.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import {loadProject} from '@verification-tiers/project'
import type {Project} from '@verification-tiers/project'
import {describe, expect, it} from 'vitest'
import {withCacheEnvironment} from './helpers/cache-environment.js'

// FUZZ_SCALE=10 runs ten times as many cases.
const runs = Math.max(1, Math.round(8 * Number(process.env.FUZZ_SCALE ?? 1)))
const folders = withCacheEnvironment()

// Lines that make contracts, headings that are contracts only when a graph names them, and prose around them.
const lines = [
  '### C-01: Kettle',
  '### C-02: Receipt',
  '## Checkout flow',
  '### Teapot',
  '## S-01: Tea',
  '**Verification:** auto',
  '**Verification:** verify',
  'Verification: manual',
  '**Slice:** S-01',
  '**Slice:** S-02',
  '**Acceptance Criteria:**',
  '- The water boils within three minutes',
  '- [ ] The receipt names the shop -- verified by: `true`',
  'The cart becomes an order.',
  '```yaml\ncontract: C-03\n```',
  ''
]
const names = ['C-01', 'c-2', 'Kettle', 'Checkout flow', 'checkout  FLOW', 'Teapot', 'Receipt', 'C-03', 'Nothing']

/** A contract file of random lines, with a heading that is a contract only when a graph names it. */
const contractText: Arbitrary<string> = fc
  .tuple(fc.array(fc.constantFrom(...lines), {maxLength: 8}), fc.constantFrom('## Checkout flow', '### Teapot'), fc.nat())
  .map(([chosen, named, at]) => [...chosen.slice(0, at % (chosen.length + 1)), named, ...chosen.slice(at % (chosen.length + 1))].join('\n') + '\n')

/** A graph file, or none: GRAPH.json or GRAPH.md listing random names in one or two slices. */
const graph: Arbitrary<{file: 'GRAPH.json' | 'GRAPH.md'; text: string} | null> = fc.oneof(
  fc.constant(null),
  fc.tuple(fc.subarray(names), fc.subarray(names), fc.constantFrom('auto', 'verify', null)).map(([first, second, tier]) => ({
    file: 'GRAPH.json' as const,
    text: JSON.stringify({slices: {'S-01': {name: 'Tea', contracts: first, ...(tier ? {tier} : {})}, 'S-02': {name: 'Shop', contracts: second}}}, null, 2)
  })),
  fc.tuple(fc.subarray(names, {minLength: 1}), fc.constantFrom('auto', 'verify')).map(([listed, tier]) => ({
    file: 'GRAPH.md' as const,
    text: `## S-01: Tea\n\n- Contracts: ${listed.join(', ')}\n- Tier: ${tier}\n`
  }))
)

/** One edit: the files of one copy, then a load of it. */
interface Step {
  copy: number
  contracts: string
  extra: string | null
  graph: {file: 'GRAPH.json' | 'GRAPH.md'; text: string} | null
}

const copies = 3

/**
 * Steps that take their files from a few texts and graphs of the case (no
 * graph among them), so that the same text comes again: with another graph,
 * in another copy, after an edit.
 */
const steps: Arbitrary<Step[]> = fc
  .record({
    texts: fc.array(contractText, {minLength: 1, maxLength: 2}),
    graphs: fc.array(graph, {minLength: 1, maxLength: 2}).map((chosen) => [null, ...chosen])
  })
  .chain(({texts, graphs}) => {
    const text = fc.constantFrom(...texts)
    return fc.array(fc.record({copy: fc.nat({max: copies - 1}), contracts: text, extra: fc.option(text), graph: fc.constantFrom(...graphs)}), {
      minLength: 2,
      maxLength: 4
    })
  })

async function writeStep(dir: string, {contracts, extra, graph: written}: Step): Promise<void> {
  await fs.writeFile(path.join(dir, 'CONTRACTS.md'), contracts)
  if (extra === null) await fs.rm(path.join(dir, 'contracts'), {recursive: true, force: true})
  else {
    await fs.mkdir(path.join(dir, 'contracts'), {recursive: true})
    await fs.writeFile(path.join(dir, 'contracts', 'more.md'), extra)
  }
  for (const file of ['GRAPH.json', 'GRAPH.md']) await fs.rm(path.join(dir, file), {force: true})
  if (written) await fs.writeFile(path.join(dir, written.file), written.text)
}

/**
 * What a command reads of a project, or the error that stops it. Of a
 * contract’s fields, those with unread text: the cache keeps only these,
 * as nothing reads the others.
 */
async function load(dir: string, cached: boolean): Promise<unknown> {
  if (cached) delete process.env.TIERS_NO_CACHE
  else process.env.TIERS_NO_CACHE = '1'
  try {
    const project: Project = await loadProject(dir, {graphError: 'problem'})
    const contract = (loaded: Project['contracts'][number]) => ({
      ...loaded,
      contract: {...loaded.contract, fields: loaded.contract.fields.filter((field) => field.unread.length > 0)}
    })
    return {
      contracts: project.contracts.map(contract),
      slices: project.slices.map((slice) => ({...slice, contracts: slice.contracts.map(contract)})),
      slicesFrom: project.slicesFrom,
      problems: project.problems,
      warnings: project.warnings
    }
  } catch (error) {
    return {error: String(error)}
  } finally {
    delete process.env.TIERS_NO_CACHE
  }
}

describe('the contracts cache, shared by copies of a project', () => {
  it('loads every copy, after any edits in any copy, as it is loaded without the cache', {timeout: 300_000 * Math.max(1, runs / 8)}, async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (edits) => {
        const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-cache-property-')))
        folders.push(root)
        // A cache of this case alone, so that a failure shrinks to its own steps.
        process.env.XDG_CACHE_HOME = path.join(root, 'user-cache')
        for (const each of edits) {
          const dir = path.join(root, `copy-${each.copy}`, '.greenlight')
          await fs.mkdir(dir, {recursive: true})
          await writeStep(dir, each)
          // Twice through the cache: the first may fill it, the second reads what the first (or another copy) stored.
          const expected = await load(dir, false)
          expect(await load(dir, true)).toEqual(expected)
          expect(await load(dir, true)).toEqual(expected)
        }
        await fs.rm(root, {recursive: true, force: true})
      }),
      {numRuns: runs}
    )
  })
})
