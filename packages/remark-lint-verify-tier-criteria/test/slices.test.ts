/**
 * The rule agrees with the gate on what a slice graph beside the contracts
 * states, when the processor gives it (as `tiers lint` does): a contract
 * with no tier of its own takes its slices’ tier, and a slice with a human
 * check of its own gives the person something to check. Given no graph, the
 * rule reads the document alone.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import remarkLintVerifyTierCriteria from 'remark-lint-verify-tier-criteria'
import type {Options} from 'remark-lint-verify-tier-criteria'
import {afterAll, describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'
import {projectGraphs} from '@verification-tiers/graph/remark'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'

const {expected, summary} = ruleHarness('verify-tier-criteria', remarkLintVerifyTierCriteria)
const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Lint `CONTRACTS.md` of a project folder holding `files`, given its graph as `tiers lint` gives it (or, with `given` false, as the remark CLI does). */
async function lint(files: Record<string, string>, options?: Options, name = 'CONTRACTS.md', given = true) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-lint-slices-'))
  folders.push(dir)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await fs.writeFile(path.join(dir, file), text)
  }
  const file = new VFile({path: path.join(dir, name), value: files[name]})
  const base = unified().use(remarkParse).use(remarkFrontmatter).use(remarkLint).use(remarkLintVerifyTierCriteria, options)
  const processor = given ? base.data('verificationTiers', projectGraphs()) : base
  await processor.run(processor.parse(file), file)
  return file.messages.map(summary)
}

const defaultReason = (label: string) =>
  `Unexpected contract ${label} without acceptance criteria or steps (its tier defaults to \`verify\`), expected at least one criterion or step, or \`Verification: auto\``
const sliceReason = (label: string, slice: string) =>
  `Unexpected contract ${label} without acceptance criteria or steps (its slice ${slice} is on \`verify\`), expected at least one criterion or step, or \`Verification: auto\``
const verifyReason = (label: string) => `Unexpected verify contract ${label} without acceptance criteria or steps, expected at least one criterion or step`

// Three contracts with no tier of their own and nothing to check.
const contracts =
  '### K7: Seed tray\n\nA tray of forty cells.\n\n### K8: Cold frame\n\nA lid that opens at noon.\n\n### K9: Rain barrel\n\nA tap at the bottom.\n'

describe('verify-tier-criteria with a slice graph', () => {
  it('leaves alone contracts whose slices are on auto, and those in a verify slice that asks a human check of its own', async () => {
    const graph =
      '# Plan\n\n### g1a. trays\n\n- Contracts: K7.\n- Tier: auto\n\n### g1b. frames\n\n- Contracts: K8 and K9.\n- Tier: verify. Human check: open the frame at noon and feel the air.\n'
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.md': graph})).toEqual([])
  })

  it('reports a contract in a verify slice without a human check, naming the slice, and one in no slice as before', async () => {
    const graph = '### g1a. trays\n\n- Contracts: K7\n- Tier: verify\n\n### g1b. frames\n\n- Contracts: K8\n- Tier: auto\n'
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.md': graph})).toEqual([
      expected('1:1-1:18', sliceReason('K-7 Seed tray', 'g1a')),
      expected('9:1-9:20', defaultReason('K-9 Rain barrel'))
    ])
  })

  it('reports a contract when one of its slices would show nothing of it', async () => {
    const graph = {
      slices: [
        {id: 'P-1', contracts: ['Seed tray'], verification: 'auto'},
        {id: 'P-2', contracts: ['k-07', 'K8', 'K9'], tier: 'verify', human_check: 'water the trays'},
        {id: 'P-3', contracts: ['seed TRAY'], tier: 'verify'}
      ]
    }
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.json': JSON.stringify(graph)})).toEqual([expected('1:1-1:18', sliceReason('K-7 Seed tray', 'P-3'))])
  })

  it('keeps a tier written on the contract over its slice’s, and a slice’s human check answers for it', async () => {
    const written = '### K7: Seed tray\n\n**Verification:** verify\n\n### K8: Cold frame\n\n**Verification:** verify\n'
    const graph = '## S-1: Trays\n\nContracts: K7\nTier: auto\n\n## S-2: Frames\n\nContracts: K8\nTier: verify. Human check: lift the lid\n'
    expect(await lint({'CONTRACTS.md': written, 'GRAPH.md': graph})).toEqual([expected('3:1-3:25', verifyReason('K-7 Seed tray'))])
  })

  it('places a contract the graph does not list by its own Slice field, as the gate does', async () => {
    const text = '### K7: Seed tray\n\n**Slice:** s-4\n'
    expect(await lint({'CONTRACTS.md': text, 'GRAPH.md': '## S-4: Beds\n\nContracts: K1\nTier: auto\n'})).toEqual([])
  })

  it('reads contracts in `contracts/` with the graph of the folder above, and leaves other files of the folder as they were', async () => {
    const graph = '### g1a. trays\n\n- Contracts: K7, K8, K9\n- Tier: auto\n'
    expect(await lint({'contracts/beds/trays.md': contracts, 'GRAPH.md': graph}, undefined, 'contracts/beds/trays.md')).toEqual([])
    expect(await lint({'NOTES.md': contracts, 'GRAPH.md': graph}, undefined, 'NOTES.md')).toHaveLength(3)
  })

  it('goes on as without a graph when the graph cannot be read', async () => {
    const reasons = [
      expected('1:1-1:18', defaultReason('K-7 Seed tray')),
      expected('5:1-5:19', defaultReason('K-8 Cold frame')),
      expected('9:1-9:20', defaultReason('K-9 Rain barrel'))
    ]
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.json': '{"slices": ['})).toEqual(reasons)
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.md': '### g1a. trays\n\n- Contracts: K7\n- Tier: sometimes\n'})).toEqual(reasons)
  })

  it('reads no graph itself: given none, as by the remark CLI, it reads the document alone', async () => {
    const graph = '### g1a. trays\n\n- Contracts: K7, K8, K9\n- Tier: auto\n'
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.md': graph}, undefined, 'CONTRACTS.md', false)).toEqual([
      expected('1:1-1:18', defaultReason('K-7 Seed tray')),
      expected('5:1-5:19', defaultReason('K-8 Cold frame')),
      expected('9:1-9:20', defaultReason('K-9 Rain barrel'))
    ])
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.md': graph})).toEqual([])
  })

  it('leaves every contract without a tier of its own alone with `ignoreDefaultTier`, whatever its slice', async () => {
    expect(await lint({'CONTRACTS.md': contracts, 'GRAPH.md': '### g1a. trays\n\n- Contracts: K7\n- Tier: verify\n'}, {ignoreDefaultTier: true})).toEqual([])
  })
})
