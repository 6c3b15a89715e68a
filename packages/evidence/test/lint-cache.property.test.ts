/**
 * What `tiers verify` gets of the contract files' lint is the same with its
 * cache as without it, run after run, whatever changed in between: the
 * contract files' texts, the remark configuration (present, absent, turning
 * a rule off, broken, unreadable), an ignore file the lint does not apply
 * but must be able to open, the slice graph's tiers (present, absent,
 * unreadable), or a contract file becoming unreadable. The files are read
 * and linted as verify does (`lintContractTexts`), with the lint of the
 * worker (`lintTexts`, as data) run in this process.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {lintTexts} from '@verification-tiers/lint'
import {lintedTextsOf} from '@verification-tiers/lint/text-cache'
import type {FileText} from '@verification-tiers/lint/text-cache'
import {afterAll, describe, expect, it} from 'vitest'
import {lintContractTexts} from '../lib/lint-contracts.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

type Style = 'bare' | 'bad-tier' | 'auto' | 'verify'
type Contract = {id: number; style: Style}
type ConfigKind = 'preset' | 'no-plugins' | 'rule-off' | 'broken' | 'unreadable'
type ContractFile = 'CONTRACTS.md' | 'contracts/C-2.md'

type Edit =
  | {kind: 'contract'; name: ContractFile; contracts: Contract[]}
  | {kind: 'unreadable-contract'; name: ContractFile}
  | {kind: 'config'; config: ConfigKind | 'absent'}
  | {kind: 'ignore-file'; state: 'present' | 'absent' | 'unreadable'}
  | {kind: 'graph'; tier: 'auto' | 'verify' | 'absent' | 'unreadable'; ids: number[]}

const contractText = ({id, style}: Contract): string => {
  const head = `### C-${id}: Widget ${id}\n\n**Slice:** S-01\n`
  if (style === 'bare') return `${head}\nThe widget shows the total.\n`
  if (style === 'bad-tier') return `${head}**Verification:** soon\n**Acceptance Criteria:**\n- It shows ${id}\n`
  return `${head}**Verification:** ${style}\n**Acceptance Criteria:**\n- The total ${id} is shown -- verified by: \`true\`\n`
}

const configs: Record<ConfigKind, string> = {
  preset: '{"plugins": ["remark-preset-lint-verification-tiers"]}\n',
  'no-plugins': '{"plugins": []}\n',
  'rule-off': '{"plugins": ["remark-preset-lint-verification-tiers", ["remark-lint-verification-tier", false]]}\n',
  broken: '{"plugins": [\n',
  unreadable: ''
}

const ids = fc.uniqueArray(fc.integer({min: 1, max: 3}), {maxLength: 3})
const contractFile = fc.constantFrom<ContractFile>('CONTRACTS.md', 'contracts/C-2.md')
const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('contract' as const),
      name: contractFile,
      contracts: fc.array(fc.record({id: fc.integer({min: 1, max: 3}), style: fc.constantFrom<Style>('bare', 'bad-tier', 'auto', 'verify')}), {maxLength: 3})
    })
  },
  {weight: 1, arbitrary: fc.record({kind: fc.constant('unreadable-contract' as const), name: contractFile})},
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('config' as const),
      config: fc.constantFrom<ConfigKind | 'absent'>('preset', 'no-plugins', 'rule-off', 'broken', 'unreadable', 'absent')
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({kind: fc.constant('ignore-file' as const), state: fc.constantFrom('present' as const, 'absent' as const, 'unreadable' as const)})
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('graph' as const),
      tier: fc.constantFrom('auto' as const, 'verify' as const, 'absent' as const, 'unreadable' as const),
      ids
    })
  }
)

/** Write `text` at `file`, or make it a folder (a file that cannot be read), or remove it (`null`). */
async function put(file: string, text: string | null | 'unreadable'): Promise<void> {
  await fs.rm(file, {recursive: true, force: true})
  if (text === null) return
  if (text === 'unreadable') return void (await fs.mkdir(file, {recursive: true}))
  await fs.mkdir(path.dirname(file), {recursive: true})
  await fs.writeFile(file, text)
}

async function apply(root: string, change: Edit): Promise<void> {
  const project = path.join(root, '.greenlight')
  if (change.kind === 'contract') return put(path.join(project, change.name), change.contracts.map(contractText).join('\n') || '# Nothing yet\n')
  if (change.kind === 'unreadable-contract') return put(path.join(project, change.name), 'unreadable')
  if (change.kind === 'config')
    return put(path.join(root, '.remarkrc.json'), change.config === 'absent' ? null : change.config === 'unreadable' ? 'unreadable' : configs[change.config])
  if (change.kind === 'ignore-file')
    return put(path.join(root, '.remarkignore'), change.state === 'absent' ? null : change.state === 'unreadable' ? 'unreadable' : 'drafts/\n')
  const graph = JSON.stringify({slices: {'S-01': {name: 'First', tier: change.tier, contracts: change.ids.map((id) => `C-${id}`)}}}) + '\n'
  return put(path.join(project, 'GRAPH.json'), change.tier === 'absent' ? null : change.tier === 'unreadable' ? 'unreadable' : graph)
}

/** The worker's lint, in this process. */
const lintHere = async (files: readonly FileText[]) => new Map(lintedTextsOf(await lintTexts(files)))

/** What verify gets for the contract files of `root`, with the cache or without: the notes of each file, or the error it ends with. */
async function verifyLint(root: string, cache: boolean): Promise<unknown> {
  const files = ['CONTRACTS.md', 'contracts/C-2.md'].map((name) => path.join(root, '.greenlight', name))
  try {
    const texts = await Promise.all(files.map(async (file) => ({path: file, text: await fs.readFile(file, 'utf8')})))
    const lint = await lintContractTexts(
      texts,
      new AbortController().signal,
      cache ? path.join(root, '.greenlight', 'tiers', '.verify-lint-cache') : null,
      lintHere
    )
    await lint.save()
    return {notes: [...lint.notes].sort(([a], [b]) => a.localeCompare(b))}
  } catch (error) {
    return {error: String(error)}
  }
}

async function scratch(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-verify-lint-')))
  folders.push(root)
  // The configuration's plugins resolve from the project, as in a real one.
  await fs.symlink(path.resolve('node_modules'), path.join(root, 'node_modules'))
  await apply(root, {
    kind: 'contract',
    name: 'CONTRACTS.md',
    contracts: [
      {id: 1, style: 'bare'},
      {id: 2, style: 'verify'}
    ]
  })
  await apply(root, {kind: 'contract', name: 'contracts/C-2.md', contracts: [{id: 3, style: 'auto'}]})
  return root
}

describe('the lint cache of verify', () => {
  it('relints a contract file when only the slice graph changed its tier', async () => {
    const root = await scratch()
    await apply(root, {kind: 'graph', tier: 'auto', ids: [1]})
    const auto = await verifyLint(root, true)
    await apply(root, {kind: 'graph', tier: 'verify', ids: [1]})
    const verify = await verifyLint(root, true)
    expect(verify).not.toEqual(auto)
    expect(verify).toEqual(await verifyLint(root, false))
  })

  it('gives, after any edits, what a run without it gives, run after run', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, {minLength: 1, maxLength: 6}), async (edits) => {
        const root = await scratch()
        expect(await verifyLint(root, true)).toEqual(await verifyLint(root, false))
        for (const change of edits) {
          await apply(root, change)
          expect(await verifyLint(root, true)).toEqual(await verifyLint(root, false))
          // A second run, answered from what the first stored.
          expect(await verifyLint(root, true)).toEqual(await verifyLint(root, false))
        }
      }),
      {numRuns: 15}
    )
  })
})
