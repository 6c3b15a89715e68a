/**
 * The slice graph read in every shape: GRAPH.json with `slices` as an object
 * or an array, GRAPH.md read as a tree, tiers with a human check or a
 * retired one; a folder’s graph found and read as a regular file only; and
 * slices matched to contracts by id or by name, as the gate and the lint
 * rules both match them.
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {
  graphNames,
  graphSizeLimit,
  indexContracts,
  matchSlice,
  ProjectError,
  readGraph,
  readGraphFile,
  readGraphJson,
  readTierText,
  slicesByContract
} from '@verification-tiers/graph'
import {readGraphMarkdown, readGraphSync} from '@verification-tiers/graph/markdown'
import type {GraphProblem} from '@verification-tiers/graph'
import {ProjectError as ErrorsProjectError} from '@verification-tiers/graph/errors'
import {FileReadError} from '@verification-tiers/input'
import {afterAll, describe, expect, it} from 'vitest'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A folder in a temporary directory holding `files`. */
async function folder(files: Record<string, string> = {}): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-graph-'))
  folders.push(dir)
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text)
  return dir
}

const formatProblem = (problem: GraphProblem) => `${problem.line === null ? problem.file : `${problem.file}:${problem.line}`}: ${problem.message}`

describe('GRAPH.json', () => {
  it('reads `slices` as an object keyed by id, as before', () => {
    const text = '{"slices": {"S-01": {"name": "Cards", "contracts": ["C-01", "c2"], "verification": "auto"}}}'
    expect(readGraphJson(text, 'GRAPH.json')).toEqual([
      {
        id: 'S-01',
        name: 'Cards',
        line: 1,
        contracts: [
          {text: 'C-01', line: 1},
          {text: 'c2', line: 1}
        ],
        contractsText: [],
        tier: 'auto',
        humanCheck: null,
        retired: null,
        verification: null
      }
    ])
  })

  it('refuses a shape it does not read with one error naming the file and the line, saying the file may be valid', () => {
    const read = (text: string) => () => readGraphJson(text, 'GRAPH.json')
    expect(read('{\n  "version": 3,\n  "slices": "see the roadmap"\n}')).toThrow(
      new ProjectError(
        'GRAPH.json:3',
        'Unexpected `slices` as a string, expected an object of slices by id or an array of `{"id": …, "contracts": […]}`: tiers does not read this shape of GRAPH.json, which may well be valid: report the shape to tiers'
      )
    )
    expect(read('{\n  "slices": [\n    {"name": "Benches"}\n  ]\n}')).toThrow(
      /^GRAPH\.json:3: Unexpected `slices\[0\]` without an `id`, expected a slice id such as `"id": "S-01"`: tiers does not read this shape/
    )
    expect(read('{"slices": [{"id": "A-1", "contracts": "A-2"}]}')).toThrow(
      /^GRAPH\.json:1: Unexpected `slices\[0\]\.contracts` as a string, expected a list of contract ids or names/
    )
    expect(read('{\n"slices": {\n"S-01": {"contracts": [], "tier": "sometimes"}}}')).toThrow(
      new ProjectError('GRAPH.json:3', 'Unexpected `slices.S-01.tier` "sometimes", expected `auto` or `verify`, then any words')
    )
    expect(read('{"graph": {}}')).toThrow(/^GRAPH\.json:1: Unexpected an object without `slices`/)
  })

  it('refuses slice ids that differ only in case with one error naming both places', () => {
    const text = '{\n  "slices": {\n    "s-01": {"contracts": []},\n    "S-01": {"contracts": []}\n  }\n}'
    expect(() => readGraphJson(text, 'GRAPH.json')).toThrow(
      new ProjectError(
        'GRAPH.json:4',
        'Unexpected second slice "S-01", the same id as "s-01" at line 3 in any case, expected slice ids that differ in more than case'
      )
    )
  })

  it('keeps refusing a slice id that is no file name, at its line', () => {
    expect(() => readGraphJson('{"slices": [\n{"id": "../x", "contracts": []}]}', 'GRAPH.json')).toThrow(/^GRAPH\.json:2: Unexpected slice id "\.\.\/x"/)
  })

  it('refuses text that is no JSON with one error at the line of the mistake', () => {
    expect(() => readGraphJson('{\n  "slices": {\n    "S-1": {"contracts": [,]}\n  }\n}', 'GRAPH.json')).toThrow(
      new ProjectError('GRAPH.json:3', 'Unexpected JSON syntax (ValueExpected), expected JSON')
    )
  })

  it('refuses JSON nested deeper than the parser follows with one error at line 1, never a stack overflow', () => {
    const deep = `{"slices": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    expect(() => readGraphJson(deep, 'GRAPH.json')).toThrow(
      new ProjectError('GRAPH.json:1', 'Unexpected nesting too deep to read, expected JSON nested at most a few thousand levels')
    )
  })

  it('refuses a slice with no contracts list at all, in either form, while an empty list is a slice with none', () => {
    const shape = 'expected the slice’s contracts as `"contracts": ["C-01"]`, or `"contracts": []` for a slice with none: tiers does not read this shape'
    const inArray = '{\n  "slices": [\n    {"id": 1, "name": "Pantry shelves", "parts": [{"path": "shelf.ts"}]}\n  ]\n}'
    expect(() => readGraphJson(inArray, 'GRAPH.json')).toThrow(`GRAPH.json:3: Unexpected \`slices[0]\` without \`contracts\`, ${shape}`)
    const byId = '{"slices": {\n"P-2": {"name": "Spice rack", "contracts": ["Jar"]},\n"P-3": {"name": "Bread bin"}}}'
    expect(() => readGraphJson(byId, 'GRAPH.json')).toThrow(`GRAPH.json:3: Unexpected \`slices.P-3\` without \`contracts\`, ${shape}`)
    expect(readGraphJson('{"slices": [{"id": "P-4", "contracts": []}]}', 'GRAPH.json').map((slice) => [slice.id, slice.contracts])).toEqual([['P-4', []]])
  })

  it('never reads a slice whose contracts sit under a key it does not know as a slice with none (property)', () => {
    const otherKey = fc.constantFrom('components', 'boundaries', 'parts', 'files', 'tasks', 'contract', 'specs')
    const value = fc.oneof(fc.array(fc.string({maxLength: 6}), {maxLength: 3}), fc.string({maxLength: 6}), fc.integer())
    fc.assert(
      fc.property(fc.dictionary(otherKey, value, {maxKeys: 3}), fc.boolean(), (fields, keyed) => {
        const slice = JSON.stringify({name: 'Larder', ...fields})
        const text = keyed ? `{"slices": {"L-1": ${slice}}}` : `{"slices": [${JSON.stringify({id: 'L-1', ...JSON.parse(slice)})}]}`
        expect(() => readGraphJson(text, 'GRAPH.json')).toThrow(/^GRAPH\.json:1: Unexpected `slices(?:\.L-1|\[0\])` without `contracts`/)
      })
    )
  })
})

describe('GRAPH.md', () => {
  it('refuses a `Tier:` that is no tier, naming file and line, and reads other `Verification:` words as what the tests prove', () => {
    expect(() => readGraphMarkdown('### x1. seeds\n\n- Contracts: C-1\n- Tier: sometimes\n', 'GRAPH.md')).toThrow(
      new ProjectError('GRAPH.md:4', 'Unexpected slice tier `sometimes` for x1, expected `auto` or `verify`, then any words')
    )
    const {slices} = readGraphMarkdown('### x1. seeds\n\nContracts: C-1\nVerification: verify that the seeds sprout\n', 'GRAPH.md')
    expect([slices[0]!.tier, slices[0]!.verification]).toEqual([null, 'verify that the seeds sprout'])
  })

  it('refuses slice headings that differ only in case, naming both lines', () => {
    expect(() => readGraphMarkdown('## S-01: Storage\n\nContracts: C-01\n\n## s-01: Again\n\nContracts: C-02\n', 'GRAPH.md')).toThrow(
      new ProjectError(
        'GRAPH.md:5',
        'Unexpected second slice "s-01", the same id as "S-01" at line 1 in any case, expected slice ids that differ in more than case'
      )
    )
  })

  it('makes a heading of the slices’ id shape without slice fields, and fields under a heading without an id, problems', () => {
    const {slices, problems} = readGraphMarkdown(
      '## S-01: Storage\n\nContracts: C-01\n\n## S-02: Later\n\nTo be planned.\n\n## Cleanup\n\n- Tier: auto\n',
      'GRAPH.md'
    )
    expect(slices.map((slice) => slice.id)).toEqual(['S-01'])
    expect(problems.map(formatProblem)).toEqual([
      'GRAPH.md:9: Unexpected slice fields under the heading "Cleanup", which has no slice id, expected a heading such as `### S-01: Name`',
      'GRAPH.md:5: Unexpected heading "S-02: Later" without slice fields, expected `Contracts:`, `Tier:`, `Verification:` or `Depends on:` under a slice heading'
    ])
  })
})

describe('a tier text', () => {
  it('gives the tier from its first word whatever follows it, a human check after it, or a retired check', () => {
    expect(readTierText('Verify. Human check: press the\n  button')).toEqual({tier: 'verify', humanCheck: 'press the button', retired: null})
    expect(readTierText('auto. Done last week.')).toEqual({tier: 'auto', humanCheck: null, retired: null})
    expect(readTierText('was verify; retired with the old screen')).toEqual({
      tier: 'auto',
      humanCheck: null,
      retired: 'was verify; retired with the old screen'
    })
    expect(readTierText('verifying later')).toBeNull()
  })

  it('never reads `auto` from a text whose first word is not `auto` (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const read = readTierText(text)
        if (read?.tier === 'auto' && read.retired === null)
          expect(
            text
              .trim()
              .replace(/^[`*_]+/, '')
              .slice(0, 4)
              .toLowerCase()
          ).toBe('auto')
      })
    )
  })
})

describe('a folder’s graph', () => {
  const json = '{"slices": {"P-1": {"contracts": ["K-1"], "verification": "auto"}}}'
  const markdown = '## P-2: Potting\n\n- Contracts: K-2\n- Tier: verify. Human check: lift a pot and feel its weight\n'

  it('is GRAPH.json when there is one, else GRAPH.md, else none', async () => {
    const both = await folder({'GRAPH.json': json, 'GRAPH.md': markdown})
    expect(await readGraph(both)).toMatchObject({from: 'GRAPH.json', file: path.join(both, 'GRAPH.json'), problems: [], slices: [{id: 'P-1', tier: 'auto'}]})
    const md = await folder({'GRAPH.md': markdown})
    expect(await readGraph(md)).toMatchObject({
      from: 'GRAPH.md',
      file: path.join(md, 'GRAPH.md'),
      problems: [],
      slices: [{id: 'P-2', tier: 'verify', humanCheck: 'lift a pot and feel its weight'}]
    })
    expect(await readGraph(await folder({'CONTRACTS.md': '# Nothing\n'}))).toBeNull()
    expect(readGraphSync(md)).toEqual(await readGraph(md))
    expect(readGraphSync(both)).toEqual(await readGraph(both))
  })

  it('reads the files through `readFile` when one is given', async () => {
    const asked: string[] = []
    const graph = await readGraph('/nowhere', {
      readFile: async (file: string) => {
        asked.push(file)
        return file.endsWith('.md') ? markdown : undefined
      }
    })
    expect(asked).toEqual([path.join('/nowhere', 'GRAPH.json'), path.join('/nowhere', 'GRAPH.md')])
    expect(graph?.slices.map((slice) => slice.id)).toEqual(['P-2'])
  })

  it('refuses a GRAPH.json that is a folder, and one that is a FIFO without waiting for a writer', async () => {
    const dir = await folder()
    await fs.mkdir(path.join(dir, 'GRAPH.json'))
    const error = await readGraph(dir).catch((caught: unknown) => caught)
    // Read as every input is: the one reader's error, as the gate's.
    expect(error).toBeInstanceOf(FileReadError)
    // The errors entry gives the graph's own class, the one its readers throw.
    expect(ErrorsProjectError).toBe(ProjectError)
    expect((error as Error).message).toBe(`${path.join(dir, 'GRAPH.json')}: Unexpected folder, expected a regular file`)
    if (process.platform === 'win32') return
    const fifo = await folder()
    execFileSync('mkfifo', [path.join(fifo, 'GRAPH.md')])
    await expect(readGraph(fifo)).rejects.toThrow(`${path.join(fifo, 'GRAPH.md')}: Unexpected FIFO (named pipe), expected a regular file`)
    expect(() => readGraphSync(fifo)).toThrow(`${path.join(fifo, 'GRAPH.md')}: Unexpected FIFO (named pipe), expected a regular file`)
  })

  it('refuses a graph file over the size limit without reading it', async () => {
    const dir = await folder()
    // A sparse file: its size is past the limit, and nothing is written.
    await fs.writeFile(path.join(dir, 'GRAPH.json'), '')
    await fs.truncate(path.join(dir, 'GRAPH.json'), graphSizeLimit + 1)
    const message = `${path.join(dir, 'GRAPH.json')}: Unexpected size of 16.0 MiB, expected at most 16 MiB`
    await expect(readGraph(dir)).rejects.toThrow(new FileReadError(path.join(dir, 'GRAPH.json'), message.slice(path.join(dir, 'GRAPH.json').length + 2)))
    expect(() => readGraphFile(path.join(dir, 'GRAPH.json'))).toThrow(message)
  })

  it('keeps what a GRAPH.md holds that is no slice as problems', async () => {
    const dir = await folder({'GRAPH.md': markdown + '\n## Notes\n\n- Tier: auto\n'})
    const graph = await readGraph(dir)
    expect(graph?.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'GRAPH.md')}:6: Unexpected slice fields under the heading "Notes", which has no slice id, expected a heading such as \`### S-01: Name\``
    ])
  })
})

describe('matching slices to contracts', () => {
  const pots = [
    {id: 'K-01', name: 'Pot Size', slice: null},
    {id: null, name: 'Soil Mix', slice: null},
    {id: 'K-3', name: 'Drainage', slice: 'p-9'}
  ]
  const namesOf = (item: (typeof pots)[number]) => item

  it('finds a listed entry by id in any spelling of it, or by name in any case, and names what matches nothing once', () => {
    const index = indexContracts(pots, namesOf)
    const slice = {
      contracts: [
        {text: 'k1', line: 2},
        {text: ' soil mix ', line: 3},
        {text: 'Compost', line: 4},
        {text: 'compost', line: 5}
      ],
      contractsText: []
    }
    expect(matchSlice(index, slice)).toEqual({found: [pots[0], pots[1]], missing: [{text: 'Compost', line: 4}]})
  })

  it('takes every id and name a `Contracts:` text holds, in the order written, and an unknown id of the project’s shape as missing', () => {
    const index = indexContracts(pots, namesOf)
    const slice = {contracts: [], contractsText: [{text: 'K-3 and the Soil Mix, then K1 (not K-7)', line: 8}]}
    expect(matchSlice(index, slice)).toEqual({found: [pots[2], pots[1], pots[0]], missing: [{text: 'K-7', line: 8}]})
  })

  it('gives the reader the names a graph lists: every listed entry, and the ids in its prose', () => {
    const slices = readGraphMarkdown('## P-1: Beds\n\n- Contracts: K-1 and K2 (the Soil Mix)\n', 'GRAPH.md').slices
    expect(graphNames({slices})).toEqual(['K-1', 'K2'])
    expect(graphNames({slices: readGraphJson('{"slices": {"P-1": {"contracts": [" Soil Mix ", "K-3"]}}}', 'GRAPH.json')})).toEqual(['K-3', 'Soil Mix'])
  })

  it('places each contract in the slices that list it, else in the slice its own Slice field names', () => {
    const {slices} = readGraphMarkdown(
      '## P-1: Beds\n\n- Contracts: K-1, Soil Mix\n\n## P-2: Paths\n\n- Contracts: K1\n\n## p-9: Fence\n\n- Tier: auto\n',
      'GRAPH.md'
    )
    const placed = slicesByContract(slices, pots, namesOf)
    expect(pots.map((pot) => placed.get(pot)?.map((slice) => slice.id))).toEqual([['P-1', 'P-2'], ['P-1'], ['p-9']])
    expect(slicesByContract(slices, [{id: 'K-5', name: 'Gate', slice: 'P-7'}], (item) => item).size).toBe(0)
  })

  it('finds every contract by its own id and name, whatever the other contracts are called (property)', () => {
    const id = fc.tuple(fc.constantFrom('K', 'AB', 'Q'), fc.integer({min: 0, max: 999})).map(([letters, number]) => `${letters}-${number}`)
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,12}[A-Za-z]$/)
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({id, name}), {minLength: 1, maxLength: 6, selector: (item) => item.id}), (items) => {
        const index = indexContracts(items, (item) => item)
        for (const item of items) {
          expect(matchSlice(index, {contracts: [{text: item.id.toLowerCase().replace('-', ''), line: 1}], contractsText: []}).found).toEqual([item])
          const byName = matchSlice(index, {contracts: [{text: ` ${item.name.toUpperCase()} `, line: 1}], contractsText: []}).found
          expect(byName.map((found) => found.name.toUpperCase())).toEqual([item.name.toUpperCase()])
        }
      })
    )
  })
})
