/**
 * A tier stated for a slice (in `GRAPH.md` or `GRAPH.json`) is the tier of its
 * contracts that state none, for every command: the checkpoint, the report,
 * `tiers verify` (which leaves an auto contract’s prose criteria to no one)
 * and the hand-off to the test writer. Runs `tiers` (the cli's `main`) on a copy of
 * `test/fixtures/graph-md`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {fixtureCopy} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** The fixture, with a criterion on C-01, which states no tier in S-01 (stated `auto`). */
async function project(): Promise<string> {
  const folder = await fixtureCopy(folders, 'graph-md')
  const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
  const text = await fs.readFile(contracts, 'utf8')
  await fs.writeFile(
    contracts,
    text.replace(
      '**Boundary:** Command handler -> SQLite file\n**Slice:** S-01\n',
      '**Boundary:** Command handler -> SQLite file\n**Slice:** S-01\n**Acceptance Criteria:**\n- Plants survive a restart\n'
    )
  )
  return folder
}

describe('a slice’s stated tier', () => {
  it('makes `tiers verify` leave the criteria of a contract without a tier to no one, as for any auto contract', async () => {
    const folder = await project()
    const run = await runTiers(folder, ['verify', 'S-01', '--json'])
    expect(run.code).toBe(0)
    const results = JSON.parse(run.stdout).results as Array<{criterion_id: string; status: string}>
    expect(results.map((result) => [result.criterion_id, result.status])).toEqual([
      ['test-command', 'pass'],
      ['contracts', 'pass'],
      ['C-02.1', 'requires-human']
    ])
    const checkpoint = await runTiers(folder, ['checkpoint', 'S-01'])
    expect(checkpoint.code).toBe(0)
    expect(checkpoint.stdout).toContain('  [ ] `plants list` on a new database prints "No plants yet"\n')
    expect(checkpoint.stdout).not.toContain('Plants survive a restart')
  })

  it('leaves such a contract out of the test writer’s hand-off', async () => {
    const folder = await project()
    expect((await runTiers(folder, ['verify', 'S-01'])).code).toBe(0)
    expect((await runTiers(folder, ['respond', 'S-01', 'the list is empty but prints nothing'])).code).toBe(0)
    const route = await runTiers(folder, ['route', 'S-01', '1', '--json'])
    expect(route.code).toBe(0)
    const data = JSON.parse(route.stdout)
    expect(data.contracts.map((contract: {label: string}) => contract.label)).toEqual(['C-02 PlantSchema'])
  })
})
