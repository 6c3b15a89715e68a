/**
 * The plugin that gives the lint rules the slice graph
 * (`@verification-tiers/graph/remark`): a graph kept across the processors
 * the remark CLI and a language server make for each file, read again when
 * its files change; a graph given by what runs the processor kept; a graph
 * that cannot be read is none.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import remarkSliceGraph, {projectGraphs} from '@verification-tiers/graph/remark'
import {unified} from 'unified'
import {afterAll, describe, expect, it} from 'vitest'
import {linkedProject} from '../../../test/helpers/tiers-bin.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const folderWith = (files: Record<string, string>): Promise<string> => linkedProject(folders, 'tiers-graph-remark-', files)

/** The graphs a new processor with the plugin gives the rules, as the remark CLI makes one per file. */
const given = () => unified().use(remarkSliceGraph).freeze().data('verificationTiers')!

const slices = (dir: string) =>
  given()
    .graphOf(dir)
    ?.slices.map((slice) => `${slice.id}:${slice.tier}`) ?? null

describe('remarkSliceGraph', () => {
  it('reads a folder’s graph once across processors, and again when it changes', async () => {
    const dir = await folderWith({'GRAPH.md': '## B-1: Benches\n\n- Contracts: W-2\n- Tier: auto\n'})
    const first = given().graphOf(dir)
    expect(given().graphOf(dir)).toBe(first)
    expect(slices(dir)).toEqual(['B-1:auto'])
    await fs.writeFile(path.join(dir, 'GRAPH.md'), '## B-1: Benches\n\n- Contracts: W-2\n- Tier: verify\n\n## B-2: Beds\n\n- Contracts: W-2\n')
    expect(slices(dir)).toEqual(['B-1:verify', 'B-2:null'])
    await fs.writeFile(path.join(dir, 'GRAPH.json'), '{"slices": {"J-1": {"contracts": ["W-2"]}}}')
    expect(slices(dir)).toEqual(['J-1:null'])
  })

  it('keeps the graphs what runs the processor gave', () => {
    const run = projectGraphs()
    expect(unified().data('verificationTiers', run).use(remarkSliceGraph).freeze().data('verificationTiers')).toBe(run)
  })

  it('gives no graph for a folder without one, or with one that cannot be read', async () => {
    expect(slices(await folderWith({}))).toBeNull()
    expect(slices(await folderWith({'GRAPH.json': '{"slices": 7}'}))).toBeNull()
    expect(projectGraphs().graphOf(await folderWith({'GRAPH.json': '{"slices": ['}))).toBeNull()
  })
})
