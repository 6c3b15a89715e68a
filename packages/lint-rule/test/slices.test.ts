/**
 * What every rule made with `contractRule` learns from the project’s slice
 * graph the processor gives (`processor.data('verificationTiers')`, as
 * `tiers lint` does): which folder’s graph applies to a file, the graph’s
 * names (a heading it names is a contract), each contract’s slices; given no
 * graph, the document alone, whatever files lie beside it.
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type {Root} from 'mdast'
import {contractRule, projectFolderOf, readDocument, remarkContracts} from '@verification-tiers/lint-rule'
import {projectGraphs} from '@verification-tiers/graph/remark'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {afterAll, describe, expect, it} from 'vitest'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function project(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-lint-rule-'))
  folders.push(dir)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await fs.writeFile(path.join(dir, file), text)
  }
  return dir
}

const parser = unified().use(remarkParse).use(remarkFrontmatter)

/** Each contract of `dir/name` with the ids of its slices and their tiers, as a rule sees them given the graphs `tiers lint` gives (`null`: none). */
function read(dir: string, name = 'CONTRACTS.md', value?: string, project: ReturnType<typeof projectGraphs> | null = projectGraphs()) {
  const file = new VFile({path: path.join(dir, name), value: value ?? ''})
  const tree = parser.parse(file) as Root
  const {analysis, slices} = readDocument(tree, file, project ?? undefined)
  return {
    graphFile: slices.graphFile,
    contracts: analysis.contracts.map((contract) => [contract.label, slices.slicesOf(contract).map((slice) => `${slice.id}:${slice.tier}`)])
  }
}

// A heading with no id and no fields: a contract only when the graph names it.
const contracts = '## Potting bench\n\nA bench at hip height.\n\n## W-2: Watering can\n\n**Verification:** auto\n'

describe('contractRule and the slice graph', () => {
  it('finds the project folder of `CONTRACTS.md` and of files under `contracts/`, and of no other file', () => {
    const cwd = path.join(path.sep, 'work', 'garden')
    expect(projectFolderOf({cwd, path: '.greenlight/CONTRACTS.md'})).toBe(path.join(cwd, '.greenlight'))
    expect(projectFolderOf({cwd, path: path.join(cwd, '.greenlight', 'contracts', 'beds', 'a.md')})).toBe(path.join(cwd, '.greenlight'))
    expect(projectFolderOf({cwd, path: '.greenlight/DECISIONS.md'})).toBeNull()
    expect(projectFolderOf({cwd, path: undefined as unknown as string})).toBeNull()
  })

  it('reads a heading the graph names as a contract, and gives each contract its slices', async () => {
    const dir = await project({
      'CONTRACTS.md': contracts,
      'GRAPH.json': '{"slices": [{"id": "B-1", "contracts": ["potting bench", "W2"], "verification": "auto"}]}'
    })
    expect(read(dir, 'CONTRACTS.md', contracts)).toEqual({
      graphFile: path.join(dir, 'GRAPH.json'),
      contracts: [
        ['Potting bench', ['B-1:auto']],
        ['W-2 Watering can', ['B-1:auto']]
      ]
    })
    // Without a graph, the heading is no contract.
    expect(read(await project({}), 'CONTRACTS.md', contracts).contracts).toEqual([['W-2 Watering can', []]])
  })

  it('reads no file itself: given no graph, the document alone, with a graph beside it', async () => {
    const dir = await project({
      'CONTRACTS.md': contracts,
      'GRAPH.json': '{"slices": [{"id": "B-1", "contracts": ["potting bench", "W2"], "verification": "auto"}]}'
    })
    expect(read(dir, 'CONTRACTS.md', contracts, null)).toEqual({graphFile: null, contracts: [['W-2 Watering can', []]]})
    expect(read(dir, 'CONTRACTS.md', contracts).contracts).toEqual([
      ['Potting bench', ['B-1:auto']],
      ['W-2 Watering can', ['B-1:auto']]
    ])
  })

  it('reads the contracts into `file.data.contracts` with `remarkContracts`, where the rules after it find them', async () => {
    const dir = await project({'GRAPH.json': '{"slices": [{"id": "B-1", "contracts": ["potting bench"], "tier": "verify"}]}'})
    const seen: unknown[] = []
    const rule = contractRule('seen', (analysis) => {
      seen.push(analysis)
    })
    const file = new VFile({path: path.join(dir, 'CONTRACTS.md'), value: contracts})
    const processor = unified().use(remarkParse).use(remarkContracts).use(rule).data('verificationTiers', projectGraphs())
    await processor.run(processor.parse(file), file)
    const reading = file.data.contracts!
    expect(
      reading.analysis.contracts.map((contract) => [contract.label, reading.slices.slicesOf(contract).map((slice) => `${slice.id}:${slice.tier}`)])
    ).toEqual([
      ['Potting bench', ['B-1:verify']],
      ['W-2 Watering can', []]
    ])
    expect(seen).toEqual([reading.analysis])
    expect(seen[0]).toBe(reading.analysis)
  })

  it('reads the document once per tree, in `file.data.contracts`, and again for another tree', () => {
    const file = new VFile({path: path.join(os.tmpdir(), 'CONTRACTS.md'), value: contracts})
    const tree = parser.parse(file) as Root
    const first = readDocument(tree, file)
    expect(file.data.contracts?.analysis).toBe(first.analysis)
    expect(readDocument(tree, file).analysis).toBe(first.analysis)
    expect(readDocument(parser.parse(file) as Root, file).analysis).not.toBe(first.analysis)
  })

  it('goes on without a graph it cannot read, a FIFO included, and never throws', async () => {
    const broken = await project({'GRAPH.json': '{"slices": 7}'})
    expect(read(broken, 'CONTRACTS.md', contracts)).toEqual({graphFile: null, contracts: [['W-2 Watering can', []]]})
    if (process.platform === 'win32') return
    const fifo = await project({})
    execFileSync('mkfifo', [path.join(fifo, 'GRAPH.md')])
    expect(read(fifo, 'CONTRACTS.md', contracts)).toEqual({graphFile: null, contracts: [['W-2 Watering can', []]]})
  })

  it('runs synchronously, so `runSync` and `processSync` work with the rules, and reads the document once for every rule', async () => {
    const dir = await project({'GRAPH.json': '{"slices": {"B-1": {"contracts": ["Potting bench"]}}}'})
    const seen: unknown[] = []
    const rule = (id: string) =>
      contractRule(id, (analysis, file, _options, {slices}) => {
        seen.push(analysis)
        for (const contract of analysis.contracts)
          file.message(
            `${contract.label} in ${slices
              .slicesOf(contract)
              .map((slice) => slice.id)
              .join(', ')}`
          )
      })
    const file = new VFile({path: path.join(dir, 'CONTRACTS.md'), value: contracts})
    const processor = unified().use(remarkParse).use(rule('one')).use(rule('two')).data('verificationTiers', projectGraphs())
    processor.runSync(processor.parse(file), file)
    expect(file.messages.map((message) => `${message.ruleId}: ${message.reason}`)).toEqual([
      'one: Potting bench in B-1',
      'one: W-2 Watering can in ',
      'two: Potting bench in B-1',
      'two: W-2 Watering can in '
    ])
    expect(seen[0]).toBe(seen[1])
  })
})
