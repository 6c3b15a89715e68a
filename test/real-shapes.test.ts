/**
 * End-to-end tests on fixtures that reproduce how real projects write their
 * contracts (`test/fixtures/real-shapes`: items straight under their label,
 * Go comment blocks, bold labels inside a fence, an indented template inside
 * a contract, headings `C-04 — Name` and `C5. Name`, slice-state and agent
 * files with frontmatter; `test/fixtures/graph-md`: slices in a `GRAPH.md`
 * with a stated slice tier). `tiers` (the cli's `main`) and the real `remark` bin run on a
 * temporary copy of each.
 *
 * Run `npx tsc -b` first.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, it} from 'vitest'
import {fixtureCopy, remarkBin, root, runProcess} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of a fixture project; commands run in it. */
const copy = (name: string): Promise<string> => fixtureCopy(folders, name)

const tiers = (cwd: string, ...args: string[]) => runTiers(cwd, args)

const choices = `Does this match what you intended?
  1) Yes — mark complete and continue
  2) No — I'll describe what's wrong
  3) Partially — some criteria met, I'll describe the gaps`

describe.concurrent('contracts as real projects write them', () => {
  it('`tiers contracts` shows every contract as read: tiers, items with their lines, text not read as items', async ({expect}) => {
    const folder = await copy('real-shapes')
    const run = await tiers(folder, 'contracts')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`C-01 BoilTime — .greenlight/CONTRACTS.md:22
  dialect: comment; slice: S-01; tier: verify (none written: the default)
  nothing to check: verify, with no acceptance criteria or steps

C-02 RunBoil — .greenlight/CONTRACTS.md:39
  dialect: comment; slice: S-01; tier: verify (written verify)
  acceptance criteria (2):
    51: Running \`kettle boil 1.5\` prints the time for one and a half litres before it counts down
    53: Pressing Ctrl-C stops the countdown and prints "Stopped"
  steps (2):
    56: Run \`kettle boil 1.5\` in a terminal
    57: Wait two seconds, then press Ctrl-C

C-03 AlarmSound — .greenlight/CONTRACTS.md:66
  dialect: fenced; slice: S-02; tier: verify (written verify)
  acceptance criteria (2):
    80: When the countdown reaches zero, the alarm rings three times
    81: Pressing any key during the alarm silences it (the countdown has already ended by then)
  steps (2):
    85: Run \`kettle boil 0.1\` and wait for the alarm
    86: Press the space bar while it rings

C-04 AlarmVolume — .greenlight/CONTRACTS.md:91
  dialect: fenced; slice: S-02; tier: auto (written auto)
  acceptance criteria (1, ignored: the tier is auto):
    100: The volume setting is read once at start

C-5 AlarmFormat — .greenlight/CONTRACTS.md:103
  dialect: fenced; slice: S-02; tier: auto (written auto)

C-06 SettingsFile — .greenlight/CONTRACTS.md:124
  dialect: fenced; slice: S-03; tier: verify (written verify)
  acceptance criteria (2):
    132: \`kettle settings\` prints the path of the settings file
    133: A missing settings file is created with the defaults
  steps (1):
    135: Delete the settings file and run \`kettle settings\`

C-07 SettingsReset — .greenlight/CONTRACTS.md:138
  dialect: fenced; slice: S-03; tier: verify (written verify)
  acceptance criteria (1):
    146: \`kettle settings --reset\` puts every setting back to its default
  not read as items:
    148: paragraph under \`Steps\`: Reset the settings, then open the settings file and read it.

7 contracts in 1 file: 5 verify, 2 auto
tiers as written: 4 verify, 2 auto, 1 none (verify by default)
verify contracts: 7 acceptance criteria, 5 steps; 1 with nothing to check
slices: 3, from GRAPH.json
1 block under criteria or steps labels not read as items (see “not read as items” above)
`)
    // The second run reads the contracts cache, which keeps what the commands show, unread text included.
    expect(await fs.readdir(path.join(process.env.XDG_CACHE_HOME!, 'verification-tiers', 'contracts'))).not.toHaveLength(0)
    expect(await tiers(folder, 'contracts')).toEqual(run)
  })

  it('`tiers contracts --slice --json` gives one slice’s contracts with lines, columns and checks', async ({expect}) => {
    const folder = await copy('real-shapes')
    const run = await tiers(folder, 'contracts', '--slice', 's-03', '--json')
    expect(run.code).toBe(0)
    const data = JSON.parse(run.stdout)
    expect(data.slice).toBe('S-03')
    expect(data.contracts.map((contract: {label: string}) => contract.label)).toEqual(['C-06 SettingsFile', 'C-07 SettingsReset'])
    expect(data.contracts[0]).toMatchObject({
      file: '.greenlight/CONTRACTS.md',
      line: 124,
      dialect: 'fenced',
      slices: ['S-03'],
      declaredTier: 'verify',
      tierInSlice: 'verify',
      tierFrom: 'contract',
      criteria: [
        {text: '`kettle settings` prints the path of the settings file', line: 132, column: 3, check: null},
        {text: 'A missing settings file is created with the defaults', line: 133, column: 3, check: null}
      ],
      steps: [{text: 'Delete the settings file and run `kettle settings`', line: 135, column: 3, check: null}],
      unread: [],
      nothingToCheck: false
    })
    expect(data.contracts[1].unread).toEqual([
      {field: 'Steps', kind: 'paragraph', text: 'Reset the settings, then open the settings file and read it.', line: 148, column: 1}
    ])
    expect(data.summary).toEqual({
      contracts: 2,
      files: 1,
      verify: 2,
      auto: 0,
      written: {verify: 2, auto: 0, other: 0, none: 0},
      fromSlice: 0,
      criteria: 3,
      steps: 1,
      nothingToCheck: 0,
      unread: 1
    })
  })

  it('`tiers contracts` refuses a stray argument and an unknown slice; other commands refuse `--slice`', async ({expect}) => {
    const folder = await copy('real-shapes')
    expect(await tiers(folder, 'contracts', 'S-01')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected extra argument `S-01`, expected `tiers contracts [--slice <slice>]`\n'
    })
    expect(await tiers(folder, 'status', '--slice', 'S-01')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected `--slice` with `tiers status`, expected it only with `tiers contracts`\n'
    })
    expect(await tiers(folder, 'contracts', '--slice', 'S-09')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected slice `S-09`, expected one of: S-01, S-02, S-03\n'
    })
  })

  it('the checkpoint lists the items under their labels, wrapped lines joined, sub-points and templates left out', async ({expect}) => {
    const folder = await copy('real-shapes')
    expect((await tiers(folder, 'verify', 'S-02')).code).toBe(0)
    const run = await tiers(folder, 'checkpoint', 'S-02')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`ALL TESTS PASSING — Slice S-02: Alarm

Please verify the output matches your intent.

Acceptance criteria:
  [ ] When the countdown reaches zero, the alarm rings three times
  [ ] Pressing any key during the alarm silences it (the countdown has already ended by then)

Steps to verify:
  1. Run \`kettle boil 0.1\` and wait for the alarm
  2. Press the space bar while it rings

${choices}
`)
  })

  it('the checkpoint says which verify contract has nothing to check', async ({expect}) => {
    const folder = await copy('real-shapes')
    expect((await tiers(folder, 'verify', 'S-01')).code).toBe(0)
    const run = await tiers(folder, 'checkpoint', 'S-01')
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('tiers: warning: C-01 BoilTime: verify tier with no acceptance criteria or steps\n')
    expect(run.stdout).toBe(`ALL TESTS PASSING — Slice S-01: Boil

Please verify the output matches your intent.

Acceptance criteria:
  [ ] Running \`kettle boil 1.5\` prints the time for one and a half litres before it counts down
  [ ] Pressing Ctrl-C stops the countdown and prints "Stopped"

Steps to verify:
  1. Run \`kettle boil 1.5\` in a terminal
  2. Wait two seconds, then press Ctrl-C

${choices}
`)
  })

  it('`tiers report` and `tiers status` flag a verify contract with nothing to check', async ({expect}) => {
    const folder = await copy('real-shapes')
    const report = await tiers(folder, 'report', 'S-01')
    expect(report.code).toBe(0)
    expect(report.stdout).toBe(`TIER REPORT — Slice S-01: Boil

Effective tier: verify

Contracts:
  C-01 BoilTime: verify (default) — criteria: 0, steps: 0
  C-02 RunBoil: verify — criteria: 2, steps: 2

Warnings:
  - C-01 BoilTime: verify tier with no acceptance criteria or steps
`)
    const status = await tiers(folder, 'status')
    expect(status.code).toBe(0)
    expect(
      status.stdout
    ).toBe(`S-01 Boil: verify, 0/3 rejections, undecided, never verified, next: verify; nothing to check in C-01 BoilTime (verify, no acceptance criteria or steps)
S-02 Alarm: verify, 0/3 rejections, undecided, never verified, next: verify
S-03 Settings: verify, 0/3 rejections, undecided, never verified, next: verify
`)
    const json = JSON.parse((await tiers(folder, 'status', 'S-01', '--json')).stdout)
    expect(json.slices[0].nothingToCheck).toEqual(['C-01 BoilTime'])
  })
})

describe.concurrent('slices in GRAPH.md', () => {
  it('reads one heading per slice with its contracts; a contract without a tier takes the slice’s stated tier', async ({expect}) => {
    const folder = await copy('graph-md')
    const status = await tiers(folder, 'status')
    expect(status.code).toBe(0)
    expect(status.stdout).toBe(`S-01 Storage: verify, 0/3 rejections, undecided, never verified, next: verify
S-02 Watering Reminder: verify, 0/3 rejections, undecided, never verified, next: verify
`)
    const report = await tiers(folder, 'report', 'S-01')
    expect(report.stdout).toBe(`TIER REPORT — Slice S-01: Storage

Effective tier: verify

Contracts:
  C-01 PlantStore: auto — criteria: 0, steps: 0
  C-02 PlantSchema: verify — criteria: 1, steps: 0
`)
    const contracts = JSON.parse((await tiers(folder, 'contracts', '--json')).stdout)
    expect(
      contracts.contracts.map((contract: {id: string; slices: string[]; tierInSlice: string; tierFrom: string}) => [
        contract.id,
        contract.slices,
        contract.tierInSlice,
        contract.tierFrom
      ])
    ).toEqual([
      ['C-01', ['S-01'], 'auto', 'slice'],
      ['C-02', ['S-01'], 'verify', 'contract'],
      ['C-03', ['S-02'], 'verify', 'default'],
      ['C-04', ['S-02'], 'auto', 'contract']
    ])
  })

  it('an auto slice whose contracts state no tier needs no checkpoint', async ({expect}) => {
    const folder = await copy('graph-md')
    const graph = path.join(folder, '.greenlight', 'GRAPH.md')
    await fs.writeFile(graph, (await fs.readFile(graph, 'utf8')).replace('Contracts: C-01, C-02', 'Contracts: C-01'))
    // C-02, which states `verify`, goes too: listed nowhere, its Slice field would keep it in S-01.
    const contracts = path.join(folder, '.greenlight', 'CONTRACTS.md')
    await fs.writeFile(contracts, (await fs.readFile(contracts, 'utf8')).replace(/### C-02:[\s\S]*?(?=### C-03)/, ''))
    const run = await tiers(folder, 'checkpoint', 'S-01')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('Slice S-01: Storage is auto: every contract is auto, so no checkpoint is needed.\n')
  })

  it('reads a slice without contracts as one (its contracts keep their Slice field), and names the file and line of a bad tier, exiting 2', async ({
    expect
  }) => {
    const folder = await copy('graph-md')
    const graph = path.join(folder, '.greenlight', 'GRAPH.md')
    const text = await fs.readFile(graph, 'utf8')
    await fs.writeFile(graph, text.replace('Contracts: C-01, C-02\n', ''))
    const status = await tiers(folder, 'status')
    expect([status.code, status.stdout.split('\n')[0]]).toEqual([0, 'S-01 Storage: verify, 0/3 rejections, undecided, never verified, next: verify'])
    expect(status.stderr).toContain(
      'tiers: warning: .greenlight/CONTRACTS.md:6: C-01 PlantStore is in slice S-01, but GRAPH.md does not list it there; it is checked with S-01'
    )
    await fs.writeFile(graph, text.replace('Verification: auto', 'Tier: sometimes'))
    expect(await tiers(folder, 'status')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/GRAPH.md:8: Unexpected slice tier `sometimes` for S-01, expected `auto` or `verify`, then any words\n'
    })
  })

  it('takes a slice tier from GRAPH.json too, and refuses one that is not auto or verify', async ({expect}) => {
    const folder = await copy('graph-md')
    const dir = path.join(folder, '.greenlight')
    await fs.writeFile(
      path.join(dir, 'GRAPH.json'),
      JSON.stringify({slices: {'S-01': {name: 'Storage', contracts: ['C-01'], verification: 'auto'}, 'S-02': {name: 'Reminder', contracts: ['c3']}}})
    )
    const contracts = JSON.parse((await tiers(folder, 'contracts', '--json')).stdout)
    // Contracts the graph does not list keep the slice their Slice field names, and no stated tier.
    expect(
      contracts.contracts.map((contract: {id: string; slices: string[]; tierInSlice: string; tierFrom: string}) => [
        contract.id,
        contract.slices,
        contract.tierInSlice,
        contract.tierFrom
      ])
    ).toEqual([
      ['C-01', ['S-01'], 'auto', 'slice'],
      ['C-02', ['S-01'], 'verify', 'contract'],
      ['C-03', ['S-02'], 'verify', 'default'],
      ['C-04', ['S-02'], 'auto', 'contract']
    ])
    await fs.writeFile(path.join(dir, 'GRAPH.json'), JSON.stringify({slices: {'S-01': {name: 'Storage', contracts: ['C-01'], verification: 'sometimes'}}}))
    expect(await tiers(folder, 'status')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: .greenlight/GRAPH.json:1: Unexpected `slices.S-01.verification` "sometimes", expected `auto` or `verify`, then any words\n'
    })
  })
})

describe.concurrent('remark on the real shapes', () => {
  it('reports what is wrong and nothing else: no contract messages on slice-state or agent files', async ({expect}) => {
    const folder = await copy('real-shapes')
    const preset = path.join(root, 'packages', 'remark-preset-lint-verification-tiers', 'dist', 'index.js')
    const run = await runProcess(remarkBin, ['--no-color', '--no-config', '--use', preset, '.greenlight'], {
      cwd: folder,
      env: {NO_COLOR: '1', FORCE_COLOR: undefined}
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n').map((line) => line.replace(/ {2,}/g, ' ').trimEnd())).toEqual(LINT_REPORT)
  })
})

const LINT_REPORT: string[] = [
  '.greenlight/agents/timer-architect.md: no issues found',
  '.greenlight/CONTRACTS.md',
  '22:1-22:19 warning Unexpected contract C-01 BoilTime without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto` verify-tier-criteria remark-lint',
  '99:1-99:20 warning Unexpected acceptance criteria on auto contract C-04 AlarmVolume, expected none as the `auto` tier ignores them, or `Verification: verify` auto-tier-ignored-fields remark-lint',
  '148:1-148:61 warning Unexpected paragraph under `Steps` in C-07 SettingsReset, expected a list of steps contract-item-list remark-lint',
  '',
  '.greenlight/slices/S-01.md: no issues found',
  '',
  '⚠ 3 warnings',
  ''
]

describe.concurrent('a contract after an unclosed link', () => {
  // Markdown where a guess that the file holds no contract went wrong: every file is parsed.
  async function linkProject(tier: string): Promise<string> {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-link-'))
    folders.push(folder)
    await fs.mkdir(path.join(folder, '.greenlight', 'contracts'), {recursive: true})
    await fs.writeFile(path.join(folder, '.greenlight', 'CONTRACTS.md'), '## S-01: Grid\n\n### C-01: GridApi\n\n**Verification:** auto\n')
    await fs.writeFile(
      path.join(folder, '.greenlight', 'contracts', 'C-02.md'),
      `Grid cells are written grid[row](\n\n### C-02: GridIndex\n\n**Slice:** S-01\n**Verification:** ${tier}\n**Acceptance Criteria:**\n- Cells are numbered from the top left (row, then column)\n`
    )
    return folder
  }

  it('stays in its slice: the gate asks a human', async ({expect}) => {
    const folder = await linkProject('verify')
    const run = await tiers(folder, 'status')
    expect(run).toEqual({code: 0, stdout: 'S-01 Grid: verify, 0/3 rejections, undecided, never verified, next: verify\n', stderr: ''})
  })

  it('is linted: `tiers lint --frail` fails as `remark --frail` does on a bad tier', async ({expect}) => {
    const folder = await linkProject('sometimes')
    const run = await tiers(folder, 'lint', '--frail', '--no-color', '.greenlight/contracts')
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      '.greenlight/contracts/C-02.md\n6:19-6:28 error Unexpected verification tier `sometimes` on C-02 GridIndex, expected `auto` or `verify` verification-tier remark-lint\n\n✖ 1 error\n'
    )
  })
})
