/**
 * The lint cache keys a file's messages on everything its rules read, not
 * only its text: the rules read the slice graph of the file's project
 * (`GRAPH.json` or `GRAPH.md` beside `CONTRACTS.md` or `contracts/`), so an
 * edit of the graph alone must relint. After any edits of the graph and the
 * contract files, a run with the cache reports what a run without it reports.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {lintFiles} from '@verification-tiers/lint'
import type {LintSettings} from '@verification-tiers/lint'
import {cachedSettings, expectCacheAgrees} from './cache-property.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

// A contract without a tier or criteria: warned about when a verify slice lists it, not when only auto slices do.
const bare = (id: number) => `### C-${id}: Widget ${id}\n\nThe widget shows the total.\n`

const jsonGraph = (tier: 'auto' | 'verify', ids: number[]) =>
  JSON.stringify({slices: {'S-01': {name: 'First', tier, contracts: ids.map((id) => `C-${id}`)}}}) + '\n'
const markdownGraph = (tier: 'auto' | 'verify', ids: number[]) =>
  `# Slices\n\n## S-01: First\n\nTier: ${tier}\n\nContracts: ${ids.map((id) => `C-${id}`).join(', ')}\n`

type Edit =
  | {kind: 'graph'; format: 'GRAPH.json' | 'GRAPH.md'; tier: 'auto' | 'verify'; ids: number[]}
  | {kind: 'remove'; name: 'GRAPH.json' | 'GRAPH.md' | 'contracts/C-2.md'}
  | {kind: 'contract'; name: 'CONTRACTS.md' | 'contracts/C-2.md'; ids: number[]}

const ids = fc.uniqueArray(fc.integer({min: 1, max: 3}), {minLength: 0, maxLength: 3})
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('graph' as const),
    format: fc.constantFrom('GRAPH.json' as const, 'GRAPH.md' as const),
    tier: fc.constantFrom('auto' as const, 'verify' as const),
    ids
  }),
  fc.record({kind: fc.constant('remove' as const), name: fc.constantFrom('GRAPH.json' as const, 'GRAPH.md' as const, 'contracts/C-2.md' as const)}),
  fc.record({kind: fc.constant('contract' as const), name: fc.constantFrom('CONTRACTS.md' as const, 'contracts/C-2.md' as const), ids})
)

async function apply(folder: string, change: Edit): Promise<void> {
  const at = (name: string) => path.join(folder, '.greenlight', name)
  if (change.kind === 'remove') return fs.rm(at(change.name), {force: true})
  if (change.kind === 'graph') return fs.writeFile(at(change.format), (change.format === 'GRAPH.json' ? jsonGraph : markdownGraph)(change.tier, change.ids))
  await fs.mkdir(path.dirname(at(change.name)), {recursive: true})
  await fs.writeFile(at(change.name), change.ids.map(bare).join('\n') || '# Nothing yet\n')
}

const settingsFor = (cwd: string, cache: boolean): LintSettings => cachedSettings(cwd, ['.greenlight'], cache)

const report = async (cwd: string, cache: boolean): Promise<string> => (await lintFiles(settingsFor(cwd, cache))).report.text

describe('the lint cache and the slice graph', () => {
  it('relints a contract file when only the graph changed', async () => {
    const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-cache-graph-')))
    folders.push(folder)
    await apply(folder, {kind: 'contract', name: 'CONTRACTS.md', ids: [1]})
    await apply(folder, {kind: 'graph', format: 'GRAPH.json', tier: 'auto', ids: [1]})
    await report(folder, true)
    expect(await report(folder, true)).not.toContain('verify-tier-criteria')
    await apply(folder, {kind: 'graph', format: 'GRAPH.json', tier: 'verify', ids: [1]})
    expect(await report(folder, true)).toBe(await report(folder, false))
    expect(await report(folder, true)).toContain('verify-tier-criteria')
  })

  it('reports after any edits of the graph and the contracts exactly what a run without it reports', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, {minLength: 1, maxLength: 3}), fc.array(edit, {minLength: 1, maxLength: 3}), async (before, after) => {
        const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-cache-graph-')))
        folders.push(folder)
        await apply(folder, {kind: 'contract', name: 'CONTRACTS.md', ids: [1, 2]})
        await expectCacheAgrees(folder, apply, report, before, after)
      }),
      {numRuns: 12}
    )
  })
})
