/**
 * A project loaded with its graph in every shape (the readers themselves are
 * tested in `@verification-tiers/graph`): GRAPH.json with `slices` as an
 * array, contracts listed by id or by name; GRAPH.md with slice headings of
 * any id under milestone headings, tiers with a human check or a retired
 * one. And nothing unread is silent: what the loader
 * cannot match or place is in `project.problems`, with file and line.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {findSlice, formatProblem, gateContext, loadProject, ProjectError} from '@verification-tiers/project'
import {renderVerifyCheckpoint, verifyCheckpointData} from '@verification-tiers/runtime'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
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
    const loaded = await loadProject(dir)
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
    const loaded = await loadProject(dir)
    expect(loaded.warnings).toEqual([
      `${path.join(dir, 'CONTRACTS.md')}:5: Kettle is in slice K-1, K-2, but GRAPH.json lists it under K-1 only; it is checked with K-1: list it under K-2 in GRAPH.json, or correct its slice`
    ])
    expect(loaded.problems).toEqual([])
    expect(loaded.slices.map((slice) => [slice.id, contractsOf(slice)])).toEqual([
      ['K-1', ['Kettle', 'Cosy']],
      ['K-2', ['Teapot']]
    ])
  })
})

describe('GRAPH.md', () => {
  it('reads slice headings of any id under milestone headings, their tiers, human checks, retired checks and prose contracts', async () => {
    const dir = await project('md-milestones')
    const loaded = await loadProject(dir)
    expect(loaded.slicesFrom).toBe('GRAPH.md')
    expect(loaded.slices.map((slice) => [slice.id, slice.name, contractsOf(slice), slice.tier, slice.humanCheck, slice.retired])).toEqual([
      ['r1a', 'register core', ['C-1 Tree register'], 'auto', null, null],
      [
        'r1b',
        'register screen',
        ['C-1 Tree register'],
        'auto',
        null,
        'was verify; the human check is retired, because the table was replaced by the map in r2a.'
      ],
      [
        'r2a',
        'harvest entry',
        ['C-2 Harvest log', 'C-1 Tree register'],
        'verify',
        'log three crates from the phone in the rain and read them back on the laptop.',
        null
      ],
      ['r2b', 'frost watch', [], 'verify', 'leave the sensor in the freezer and wait for the message.', null]
    ])
    expect(loaded.slices[0]!.verification).toBe('a tree added twice is stored once; rows sort by number.')
    // C3 is in no slice: r2b names its contracts in prose, and none of them by id.
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'CONTRACTS.md')}:11: Unexpected verify contract C-3 Frost alert in no slice, expected it under a slice in GRAPH.md, so that a checkpoint shows it`
    ])
  })

  it('puts a slice’s own human check and what its tests prove in its checkpoint, and a slice with no contracts is checked by it', async () => {
    const loaded = await loadProject(await project('md-milestones'))
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
    expect([retired.tier, retired.humanCheck, retired.retired]).toEqual([
      'auto',
      null,
      'was verify; the human check is retired, because the table was replaced by the map in r2a.'
    ])
  })

  it('takes every known contract id in a `Contracts:` text, and makes an id of the project’s shape that no contract has a problem', async () => {
    const dir = await project(null, {
      'CONTRACTS.md': '### C-01: Tray\n\n**Verification:** auto\n\n### C-02: Lid\n\n**Verification:** auto\n',
      'GRAPH.md': '## S-01: Storage\n\n**Contracts:** C-02 through C-1 (see C-09, and S-02)\n**Verification:** auto\n'
    })
    const loaded = await loadProject(dir)
    expect(loaded.slices.map((slice) => [slice.id, contractsOf(slice), slice.missing, slice.tier])).toEqual([
      ['S-01', ['C-02 Lid', 'C-01 Tray'], ['C-09'], 'auto']
    ])
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'GRAPH.md')}:3: Unexpected "C-09" in the contracts of slice S-01, expected the id or name of a contract in CONTRACTS.md or contracts/`
    ])
  })
})

describe('nothing unread is silent', () => {
  const contracts = '### C-01: Tray\n\n**Verification:** verify\n**Acceptance Criteria:**\n- The tray holds twelve pots\n'

  it('names a graph entry that matches no contract, and a second contract with an id the graph lists', async () => {
    const dir = await project(null, {
      'CONTRACTS.md': contracts + '\n### C-01: Tray Again\n\n**Verification:** verify\n',
      'GRAPH.json': '{\n  "slices": [\n    {"id": "S-1", "contracts": [\n      "C-01",\n      "Watering Can"\n    ]}\n  ]\n}\n'
    })
    const loaded = await loadProject(dir)
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
    const loaded = await loadProject(dir)
    expect(contractsOf(loaded.slices[0]!)).toEqual(['C-01 Tray', 'C-02 Lid', 'C-03 Vent', 'C-04 Heater'])
    expect(loaded.problems.map(formatProblem)).toEqual([
      `${path.join(dir, 'contracts', 'notes.md')}: Unexpected contract file without a contract tiers can read, expected contract headings such as \`### C-01: Name\``
    ])
  })

  it('reads a project folder whose contracts are all hidden as no contracts with the lines that hid them, so the gate fails closed', async () => {
    const dir = await project(null, {'CONTRACTS.md': '<!--\n### C-01: Tray\n'})
    const loaded = await loadProject(dir)
    expect([loaded.contracts.length, loaded.slices.length]).toEqual([0, 0])
    expect(loaded.problems.map((problem) => [problem.file, problem.line])).toEqual([[path.join(dir, 'CONTRACTS.md'), 2]])
    expect(loaded.problems[0]!.message).toMatch(/^Unexpected contract heading `### C-01: Tray` inside an unclosed HTML comment/)
  })

  it('reads a project folder without contracts as a problem naming the folder', async () => {
    const dir = await project(null, {'CONTRACTS.md': '# Notes\n\nNothing here yet.\n'})
    expect((await loadProject(dir)).problems).toEqual([
      {
        file: dir,
        line: null,
        message:
          'Unexpected project folder without contracts that tiers can read, expected CONTRACTS.md or contracts/*.md with contract headings such as `### C-01: Name`'
      }
    ])
  })

  it('with `graphError: problem`, reads the contracts past a graph it cannot read and names the graph’s line', async () => {
    const dir = await project(null, {'CONTRACTS.md': contracts, 'GRAPH.json': '{\n  "slices": 3\n}\n'})
    await expect(loadProject(dir)).rejects.toThrow(ProjectError)
    const loaded = await loadProject(dir, {graphError: 'problem'})
    expect([loaded.contracts.length, loaded.slicesFrom]).toEqual([1, 'contracts'])
    expect(loaded.problems[0]).toEqual({
      file: path.join(dir, 'GRAPH.json'),
      line: 2,
      message: expect.stringMatching(/^Unexpected `slices` as a number, expected /) as unknown as string
    })
  })
})
