/**
 * What the gate reads, through the cli (its `main`, in the test process), where an ordinary file used to
 * let a verify contract through: a fenced example of another tier inside a
 * contract, slice ids that differ only in case, contract files in
 * subfolders or with other markdown endings.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, it} from 'vitest'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A project folder holding `files` under `.greenlight/`, with a test command that passes. */
async function project(files: Record<string, string>): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-fail-closed-')))
  folders.push(folder)
  for (const [name, text] of Object.entries({'config.json': '{"test": {"command": "true"}}', ...files})) {
    const file = path.join(folder, '.greenlight', name)
    await fs.mkdir(path.dirname(file), {recursive: true})
    await fs.writeFile(file, text)
  }
  return folder
}

describe('the gate reads what the author wrote', () => {
  it('reads a contract as `verify` when its body shows a fenced example of `auto`: the example is no field of its own', async ({expect}) => {
    const contracts = [
      '### C-04: Receipt',
      '',
      'A contract of this project looks like this:',
      '',
      '```markdown',
      '**Verification:** auto',
      '```',
      '',
      '**Slice:** S-01',
      '**Verification:** verify',
      '**Acceptance Criteria:**',
      '- The receipt names the shop',
      ''
    ].join('\n')
    const folder = await project({'CONTRACTS.md': contracts})
    expect((await runTiers(folder, ['verify', 'S-01'])).code).toBe(0)
    const checkpoint = await runTiers(folder, ['checkpoint', 'S-01'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toContain('  [ ] The receipt names the shop\n')
  })

  it('refuses slice ids that differ only in case, naming both lines, in every command', async ({expect}) => {
    const graph = '{\n  "slices": {\n    "s-01": {"name": "Small", "contracts": ["C-01"]},\n    "S-01": {"name": "Big", "contracts": ["C-02"]}\n  }\n}\n'
    const contracts = '### C-01: Badge\n\n**Verification:** auto\n\n### C-02: Cart\n\n**Verification:** verify\n**Acceptance Criteria:**\n- The cart shows its total\n'
    const folder = await project({'CONTRACTS.md': contracts, 'GRAPH.json': graph})
    const line = 'tiers: .greenlight/GRAPH.json:4: Unexpected second slice "S-01", the same id as "s-01" at line 3 in any case, expected slice ids that differ in more than case\n'
    for (const args of [['status'], ['verify', 'S-01'], ['checkpoint', 'S-01'], ['respond', 'S-01', 'approve']]) {
      expect(await runTiers(folder, args)).toEqual({code: 2, stdout: '', stderr: line})
    }
    const hook = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 's', cwd: folder}))
    expect(JSON.parse(hook.stdout)).toMatchObject({decision: 'block', reason: expect.stringContaining('GRAPH.json:4: Unexpected second slice "S-01"') as unknown as string})
  })

  it('reads contract files in subfolders of contracts/ and with other markdown endings, so none is skipped in silence', async ({expect}) => {
    const contract = (id: string) => `### ${id}: Part\n\n**Slice:** S-01\n**Verification:** verify\n**Acceptance Criteria:**\n- ${id} is shown\n`
    const folder = await project({
      'contracts/C-01.md': contract('C-01'),
      'contracts/billing/C-02.md': contract('C-02'),
      'contracts/C-03.MD': contract('C-03'),
      'contracts/C-04.markdown': contract('C-04')
    })
    const run = await runTiers(folder, ['contracts', '--json'])
    expect(run.code).toBe(0)
    const data = JSON.parse(run.stdout) as {contracts: Array<{id: string; file: string}>; problems: unknown[]}
    expect(data.contracts.map((contract) => [contract.id, contract.file]).sort()).toEqual([
      ['C-01', '.greenlight/contracts/C-01.md'],
      ['C-02', '.greenlight/contracts/billing/C-02.md'],
      ['C-03', '.greenlight/contracts/C-03.MD'],
      ['C-04', '.greenlight/contracts/C-04.markdown']
    ])
    expect(data.problems).toEqual([])
  })
})
