/**
 * What the gate reads, through the cli (its `main`, in the test process), where an ordinary file used to
 * let a verify contract through: a fenced example of another tier inside a
 * contract, slice ids that differ only in case, contract files in
 * subfolders or with other markdown endings.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, describe, it} from 'vitest'
import {root, runProcess} from './helpers/tiers-bin.js'
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
    const contracts =
      '### C-01: Badge\n\n**Verification:** auto\n\n### C-02: Cart\n\n**Verification:** verify\n**Acceptance Criteria:**\n- The cart shows its total\n'
    const folder = await project({'CONTRACTS.md': contracts, 'GRAPH.json': graph})
    const line =
      'tiers: .greenlight/GRAPH.json:4: Unexpected second slice "S-01", the same id as "s-01" at line 3 in any case, expected slice ids that differ in more than case\n'
    for (const args of [['status'], ['verify', 'S-01'], ['checkpoint', 'S-01'], ['respond', 'S-01', 'approve']]) {
      expect(await runTiers(folder, args)).toEqual({code: 2, stdout: '', stderr: line})
    }
    const hook = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 's', cwd: folder}))
    expect(JSON.parse(hook.stdout)).toMatchObject({
      decision: 'block',
      reason: expect.stringContaining('GRAPH.json:4: Unexpected second slice "S-01"') as unknown as string
    })
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

/**
 * A folder that cannot be listed, through the real bin: `chmod 000`, with
 * the modes held as for a user when the tests run as root (CI does), by
 * `helpers/as-user.mjs` preloaded into the bin; as another user, the kernel
 * holds them and the preload changes nothing.
 */
describe('a folder under a contract folder that cannot be listed (chmod 000)', () => {
  const asUser = pathToFileURL(path.join(root, 'test', 'helpers', 'as-user.mjs')).href
  const bin = path.join(root, 'packages', 'cli', 'bin', 'tiers.js')
  const tiersAsUser = (cwd: string, args: string[], input = '') =>
    runProcess(process.execPath, ['--import', asUser, bin, ...args], {cwd, input, env: {TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined}})
  const locked: string[] = []
  afterAll(async () => {
    // Listable again, so the folders can be removed by a user too.
    await Promise.all(locked.map((folder) => fs.chmod(folder, 0o755).catch(() => {})))
  })
  const lock = async (folder: string) => {
    locked.push(folder)
    await fs.chmod(folder, 0o000)
  }
  const contract = (id: string, slice = 'S-01') =>
    `### ${id}: Part\n\n**Slice:** ${slice}\n**Verification:** verify\n**Acceptance Criteria:**\n- ${id} is shown\n`
  const unlisted = 'Unexpected folder that cannot be listed (EACCES), expected a folder tiers can read'

  /** What the gate says of a project: `verify --all`'s code and lines of what it did not read, the Stop hook's decision and reason, `contracts --json`'s problems. */
  async function gate(folder: string) {
    const verify = await tiersAsUser(folder, ['verify', '--all'])
    const hook = await tiersAsUser(folder, ['stop-hook'], JSON.stringify({session_id: 's', cwd: folder}))
    const contracts = await tiersAsUser(folder, ['contracts', '--json'])
    const answer = JSON.parse(hook.stdout) as {decision?: string; reason?: string}
    return {
      verify: verify.code,
      unread: verify.stdout.split('\n').filter((line) => line.startsWith('  ') && line.includes(': Unexpected')),
      decision: answer.decision,
      reason: answer.reason ?? '',
      problems: (JSON.parse(contracts.stdout) as {problems: unknown[]}).problems
    }
  }

  it('Greenlight: a subfolder of contracts/ is a problem naming it; verify --all fails and the Stop hook blocks', async ({expect}) => {
    const folder = await project({'contracts/C-01.md': contract('C-01'), 'contracts/billing/C-02.md': contract('C-02')})
    await lock(path.join(folder, '.greenlight', 'contracts', 'billing'))
    const seen = await gate(folder)
    expect(seen).toMatchObject({
      verify: 1,
      unread: [`  .greenlight/contracts/billing: ${unlisted}`],
      decision: 'block',
      problems: [{file: '.greenlight/contracts/billing', line: null, message: unlisted}]
    })
    expect(seen.reason).toContain(`${path.join(folder, '.greenlight', 'contracts', 'billing')}: ${unlisted}\n`)
  })

  it.for([
    [
      'spec-kit: a feature folder',
      'specs',
      {
        'specs/001-beds/spec.md':
          '# Feature Specification: Beds\n\n## User Scenarios & Testing\n\n### User Story 1 - Dig (Priority: P1)\n\n**Acceptance Scenarios**:\n\n1. **Given** a bed, **When** I dig, **Then** it is dug\n',
        'specs/002-paths/spec.md': 'x'
      },
      'specs/002-paths'
    ],
    [
      'OpenSpec: a capability folder of a change’s specs/',
      'openspec',
      {
        'openspec/project.md': '# Project\n',
        'openspec/changes/add-x/proposal.md': '# Change: Add x\n',
        'openspec/changes/add-x/specs/search/spec.md':
          '## ADDED Requirements\n\n### Requirement: Search\nThe system SHALL find.\n\n#### Scenario: Found\n- **WHEN** I search\n- **THEN** it finds\n'
      },
      'openspec/changes/add-x/specs/search'
    ],
    [
      'OpenSpec: a change folder',
      'openspec',
      {'openspec/project.md': '# Project\n', 'openspec/changes/add-x/proposal.md': '# Change: Add x\n'},
      'openspec/changes/add-x'
    ],
    [
      'Kiro: its specs/',
      '.kiro',
      {'.kiro/specs/beds/requirements.md': '# Requirements\n\n### Requirement 1\n\n#### Acceptance Criteria\n\n1. WHEN I dig THEN the system SHALL dig\n'},
      '.kiro/specs'
    ],
    [
      'Kiro: a feature folder',
      '.kiro',
      {
        '.kiro/specs/beds/requirements.md': '# Requirements\n\n### Requirement 1\n\n#### Acceptance Criteria\n\n1. WHEN I dig THEN the system SHALL dig\n',
        '.kiro/specs/paths/requirements.md': 'x'
      },
      '.kiro/specs/paths'
    ]
  ] as Array<[string, string, Record<string, string>, string]>)(
    '%s is a problem naming it; the Stop hook blocks',
    async ([, tool, files, target], {expect}) => {
      const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-fail-closed-')))
      folders.push(folder)
      for (const [name, text] of Object.entries({...files, [`${tool}/tiers.json`]: '{"test": {"command": "true"}}'})) {
        await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
        await fs.writeFile(path.join(folder, name), text)
      }
      await lock(path.join(folder, target))
      const seen = await gate(folder)
      expect(seen.problems).toContainEqual({file: target, line: null, message: unlisted})
      expect({verify: seen.verify, decision: seen.decision}).toEqual({verify: 1, decision: 'block'})
      expect(seen.reason).toContain(`${path.join(folder, target)}: ${unlisted}\n`)
    }
  )
})
