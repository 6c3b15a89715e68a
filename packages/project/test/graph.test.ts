/**
 * Slices read from every graph shape: GRAPH.json with `slices` as an object
 * or an array, contracts listed by id or by name; GRAPH.md read as a tree,
 * slice headings of any id under milestone headings, tiers with a human
 * check or a retired one. And nothing unread is silent: what the loader
 * cannot match or place is in `project.problems`, with file and line.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import fc from 'fast-check'
import {findSlice, formatProblem, gateContext, loadProject, ProjectError, readGraphJson, readGraphMarkdown, readTierText} from '@verification-tiers/project'
import {renderVerifyCheckpoint, verifyCheckpointData} from '@verification-tiers/runtime'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const quiet = {warn: () => {}}
const folders: string[] = []
const noCache = process.env.TIERS_NO_CACHE
beforeAll(() => {
  process.env.TIERS_NO_CACHE = '1'
})
afterAll(async () => {
  if (noCache === undefined) delete process.env.TIERS_NO_CACHE
  else process.env.TIERS_NO_CACHE = noCache
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A `.greenlight` folder in a temporary directory: a fixture’s files, then `files` over them. */
async function project(fixture: string | null, files: Record<string, string> = {}): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-graph-'))
  folders.push(folder)
  const dir = path.join(folder, '.greenlight')
  if (fixture) await fs.cp(path.join(fixtures, fixture, '.greenlight'), dir, {recursive: true})
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await fs.writeFile(path.join(dir, name), text)
  }
  return dir
}

const contractsOf = (slice: {contracts: Array<{contract: {label: string}}>}) => slice.contracts.map((loaded) => loaded.contract.label)

describe('GRAPH.json', () => {
  it('reads `slices` as an array of `{id, name, contracts}` whose contracts are listed by name, any case and spaces around', async () => {
    const dir = await project('json-array')
    const loaded = await loadProject(dir, quiet)
    expect(loaded.problems).toEqual([])
    expect(loaded.slices.map((slice) => [slice.id, slice.name, contractsOf(slice), slice.tier, slice.humanCheck])).toEqual([
      ['G-1', 'Benches in place', [], null, null],
      ['G-2', 'Labelled shelves', ['ShelfLabel', 'MistTimer'], null, null],
      ['G-3', 'Seeds on record', ['Seed Catalogue'], 'verify', 'open the store and find the tomato seeds']
    ])
    const {slice} = gateContext(loaded, findSlice(loaded, 'g-2'))
    expect([slice.tier, slice.criteria.length, slice.steps.length]).toEqual(['verify', 2, 1])
  })

  it('warns when a contract’s own Slice field names a slice the graph does not list it under, and keeps the graph’s placing', async () => {
    const contracts = [
      '# Garden',
      '',
      '### Contract: Kettle',
      '',
      '**Slice:** K-1, K-2',
      '',
      '**Verification:** verify',
      '**Acceptance Criteria:**',
      '- The kettle whistles when the water boils',
      '',
      '### Contract: Teapot',
      '',
      '**Slice:** K-2',
      '',
      '**Verification:** auto',
      '',
      '### Contract: Cosy',
      '',
      '**Slice:** tea time',
      '',
      '**Verification:** auto',
      ''
    ].join('\n')
    const graph = '{"slices": [{"id": "K-1", "contracts": ["Kettle", "Cosy"]}, {"id": "K-2", "contracts": ["Teapot"]}]}'
    const dir = await project(null, {'CONTRACTS.md': contracts, 'GRAPH.json': graph})
    const warnings: string[] = []
    const loaded = await loadProject(dir, {warn: (message) => warnings.push(message)})
    expect(warnings).toEqual([
      `${path.join(dir, 'CONTRACTS.md')}:5: Kettle is in slice K-1, K-2, but GRAPH.json lists it under K-1 only; it is checked with K-1: list it under K-2 in GRAPH.json, or correct its slice`
    ])
    expect(loaded.problems).toEqual([])
    expect(loaded.slices.map((slice) => [slice.id, contractsOf(slice)])).toEqual([
      ['K-1', ['Kettle', 'Cosy']],
      ['K-2', ['Teapot']]
    ])
  })

  it('reads `slices` as an object keyed by id, as before', () => {
    const text = '{"slices": {"S-01": {"name": "Cards", "contracts": ["C-01", "c2"], "verification": "auto"}}}'
    expect(readGraphJson(text, 'GRAPH.json')).toEqual([
      {id: 'S-01', name: 'Cards', line: 1, contracts: [{text: 'C-01', line: 1}, {text: 'c2', line: 1}], contractsText: [], tier: 'auto', humanCheck: null, retired: null, verification: null}
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
    expect(read('{\n  "slices": [\n    {"name": "Benches"}\n  ]\n}')).toThrow(/^GRAPH\.json:3: Unexpected `slices\[0\]` without an `id`, expected a slice id such as `"id": "S-01"`: tiers does not read this shape/)
    expect(read('{"slices": [{"id": "A-1", "contracts": "A-2"}]}')).toThrow(/^GRAPH\.json:1: Unexpected `slices\[0\]\.contracts` as a string, expected a list of contract ids or names/)
    expect(read('{\n"slices": {\n"S-01": {"contracts": [], "tier": "sometimes"}}}')).toThrow(
      new ProjectError('GRAPH.json:3', 'Unexpected `slices.S-01.tier` "sometimes", expected `auto` or `verify`, then any words')
    )
    expect(read('{"graph": {}}')).toThrow(/^GRAPH\.json:1: Unexpected an object without `slices`/)
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

  it('refuses slice ids that differ only in case with one error naming both places', () => {
    const text = '{\n  "slices": {\n    "s-01": {"contracts": []},\n    "S-01": {"contracts": []}\n  }\n}'
    expect(() => readGraphJson(text, 'GRAPH.json')).toThrow(
      new ProjectError('GRAPH.json:4', 'Unexpected second slice "S-01", the same id as "s-01" at line 3 in any case, expected slice ids that differ in more than case')
    )
  })

  it('keeps refusing a slice id that is no file name, at its line', () => {
    expect(() => readGraphJson('{"slices": [\n{"id": "../x", "contracts": []}]}', 'GRAPH.json')).toThrow(/^GRAPH\.json:2: Unexpected slice id "\.\.\/x"/)
  })
})

describe('GRAPH.md', () => {
  it('reads slice headings of any id under milestone headings, their tiers, human checks, retired checks and prose contracts', async () => {
    const dir = await project('md-milestones')
    const loaded = await loadProject(dir, quiet)
    expect(loaded.slicesFrom).toBe('GRAPH.md')
    expect(loaded.slices.map((slice) => [slice.id, slice.name, contractsOf(slice), slice.tier, slice.humanCheck, slice.retired])).toEqual([
      ['r1a', 'register core', ['C-1 Tree register'], 'auto', null, null],
      ['r1b', 'register screen', ['C-1 Tree register'], 'auto', null, 'was verify; the human check is retired, because the table was replaced by the map in r2a.'],
      ['r2a', 'harvest entry', ['C-2 Harvest log', 'C-1 Tree register'], 'verify', 'log three crates from the phone in the rain and read them back on the laptop.', null],
      ['r2b', 'frost watch', [], 'verify', 'leave the sensor in the freezer and wait for the message.', null]
    ])
    expect(loaded.slices[0]!.verification).toBe('a tree added twice is stored once; rows sort by number.')
    // C3 is in no slice: r2b names its contracts in prose, and none of them by id.
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'CONTRACTS.md')}:11: Unexpected verify contract C-3 Frost alert in no slice, expected it under a slice in GRAPH.md, so that a checkpoint shows it`
    ])
  })

  it('puts a slice’s own human check and what its tests prove in its checkpoint, and a slice with no contracts is checked by it', async () => {
    const loaded = await loadProject(await project('md-milestones'), quiet)
    const frost = gateContext(loaded, findSlice(loaded, 'R2B')).slice
    expect([frost.tier, frost.nothingToCheck]).toEqual(['verify', []])
    expect(renderVerifyCheckpoint(verifyCheckpointData(frost)).split('\n').slice(0, 7)).toEqual([
      'ALL TESTS PASSING — Slice r2b: frost watch',
      '',
      'Please verify the output matches your intent.',
      '',
      'Check by hand:',
      '  [ ] leave the sensor in the freezer and wait for the message.',
      ''
    ])
    const harvest = verifyCheckpointData(gateContext(loaded, findSlice(loaded, 'r2a')).slice)
    expect(renderVerifyCheckpoint(harvest)).toContain('What the tests prove: a crate without a tree is refused.\n')
    const retired = gateContext(loaded, findSlice(loaded, 'r1b')).slice
    expect([retired.tier, retired.humanCheck, retired.retired]).toEqual(['auto', null, 'was verify; the human check is retired, because the table was replaced by the map in r2a.'])
  })

  it('takes every known contract id in a `Contracts:` text, and makes an id of the project’s shape that no contract has a problem', async () => {
    const dir = await project(null, {
      'CONTRACTS.md': '### C-01: Tray\n\n**Verification:** auto\n\n### C-02: Lid\n\n**Verification:** auto\n',
      'GRAPH.md': '## S-01: Storage\n\n**Contracts:** C-02 through C-1 (see C-09, and S-02)\n**Verification:** auto\n'
    })
    const loaded = await loadProject(dir, quiet)
    expect(loaded.slices.map((slice) => [slice.id, contractsOf(slice), slice.missing, slice.tier])).toEqual([['S-01', ['C-02 Lid', 'C-01 Tray'], ['C-09'], 'auto']])
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'GRAPH.md')}:3: Unexpected "C-09" in the contracts of slice S-01, expected the id or name of a contract in CONTRACTS.md or contracts/`
    ])
  })

  it('refuses a `Tier:` that is no tier, naming file and line, and reads other `Verification:` words as what the tests prove', () => {
    expect(() => readGraphMarkdown('### x1. seeds\n\n- Contracts: C-1\n- Tier: sometimes\n', 'GRAPH.md')).toThrow(
      new ProjectError('GRAPH.md:4', 'Unexpected slice tier `sometimes` for x1, expected `auto` or `verify`, then any words')
    )
    const {slices} = readGraphMarkdown('### x1. seeds\n\nContracts: C-1\nVerification: verify that the seeds sprout\n', 'GRAPH.md')
    expect([slices[0]!.tier, slices[0]!.verification]).toEqual([null, 'verify that the seeds sprout'])
  })

  it('refuses slice headings that differ only in case, naming both lines', () => {
    expect(() => readGraphMarkdown('## S-01: Storage\n\nContracts: C-01\n\n## s-01: Again\n\nContracts: C-02\n', 'GRAPH.md')).toThrow(
      new ProjectError('GRAPH.md:5', 'Unexpected second slice "s-01", the same id as "S-01" at line 1 in any case, expected slice ids that differ in more than case')
    )
  })

  it('makes a heading of the slices’ id shape without slice fields, and fields under a heading without an id, problems', () => {
    const {slices, problems} = readGraphMarkdown('## S-01: Storage\n\nContracts: C-01\n\n## S-02: Later\n\nTo be planned.\n\n## Cleanup\n\n- Tier: auto\n', 'GRAPH.md')
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
    expect(readTierText('was verify; retired with the old screen')).toEqual({tier: 'auto', humanCheck: null, retired: 'was verify; retired with the old screen'})
    expect(readTierText('verifying later')).toBeNull()
  })

  it('never reads `auto` from a text whose first word is not `auto` (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const read = readTierText(text)
        if (read?.tier === 'auto' && read.retired === null) expect(text.trim().replace(/^[`*_]+/, '').slice(0, 4).toLowerCase()).toBe('auto')
      })
    )
  })
})

describe('nothing unread is silent', () => {
  const contracts = '### C-01: Tray\n\n**Verification:** verify\n**Acceptance Criteria:**\n- The tray holds twelve pots\n'

  it('names a graph entry that matches no contract, and a second contract with an id the graph lists', async () => {
    const dir = await project(null, {
      'CONTRACTS.md': contracts + '\n### C-01: Tray Again\n\n**Verification:** verify\n',
      'GRAPH.json': '{\n  "slices": [\n    {"id": "S-1", "contracts": [\n      "C-01",\n      "Watering Can"\n    ]}\n  ]\n}\n'
    })
    const loaded = await loadProject(dir, quiet)
    expect(loaded.slices[0]!.missing).toEqual(['Watering Can'])
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'GRAPH.json')}:5: Unexpected "Watering Can" in the contracts of slice S-1, expected the id or name of a contract in CONTRACTS.md or contracts/`,
      `${path.join(dir, 'CONTRACTS.md')}:7: Unexpected second contract C-01 Tray Again, the id of the contract at ${path.join(dir, 'CONTRACTS.md')}:1, which GRAPH.json lists; expected an id of its own`,
      `${path.join(dir, 'CONTRACTS.md')}:7: Unexpected verify contract C-01 Tray Again in no slice, expected it under a slice in GRAPH.json, so that a checkpoint shows it`
    ])
  })

  it('reads contract files in subfolders and with other markdown endings, and names one that holds no contract', async () => {
    const dir = await project(null, {
      'CONTRACTS.md': contracts,
      'contracts/sub/C-02.md': '### C-02: Lid\n\n**Verification:** auto\n',
      'contracts/C-03.MD': '### C-03: Vent\n\n**Verification:** auto\n',
      'contracts/C-04.markdown': '### C-04: Heater\n\n**Verification:** auto\n',
      'contracts/notes.md': 'Nothing here is a contract yet.\n',
      'GRAPH.json': '{"slices": {"S-1": {"contracts": ["C-01", "C-02", "C-03", "C-04"]}}}'
    })
    const loaded = await loadProject(dir, quiet)
    expect(contractsOf(loaded.slices[0]!)).toEqual(['C-01 Tray', 'C-02 Lid', 'C-03 Vent', 'C-04 Heater'])
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'contracts', 'notes.md')}: Unexpected contract file without a contract tiers can read, expected contract headings such as \`### C-01: Name\``
    ])
  })

  it('refuses a project folder without contracts with a ProjectError naming it, so the gate fails closed', async () => {
    const dir = await project(null, {'CONTRACTS.md': '<!--\n### C-01: Tray\n'})
    const error = await loadProject(dir, quiet).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ProjectError)
    expect((error as ProjectError).message).toBe(
      `${dir}: Unexpected project folder without contracts that tiers can read, expected CONTRACTS.md or contracts/*.md with contract headings such as \`### C-01: Name\`; run \`tiers contracts\` to see what was read`
    )
  })

  it('with `graphError: problem`, reads the contracts past a graph it cannot read and names the graph’s line', async () => {
    const dir = await project(null, {'CONTRACTS.md': contracts, 'GRAPH.json': '{\n  "slices": 3\n}\n'})
    await expect(loadProject(dir, quiet)).rejects.toThrow(ProjectError)
    const loaded = await loadProject(dir, {...quiet, graphError: 'problem'})
    expect([loaded.contracts.length, loaded.slicesFrom]).toEqual([1, 'contracts'])
    expect(loaded.problems[0]).toEqual({file: path.join(dir, 'GRAPH.json'), line: 2, message: expect.stringMatching(/^Unexpected `slices` as a number, expected /) as unknown as string})
  })
})
