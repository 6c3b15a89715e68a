/**
 * The conventions a person expects of a command line: `--version`, a
 * suggestion for a mistyped command or option, the project found from a
 * subfolder as git finds `.git` (for every command, the stop hook and verify
 * too), and plain, stable lines when the output is piped. What the bin itself
 * decides goes through the real bin: `--version` as it prints it, and what it
 * prints to a pipe and at a terminal, which it tells apart; what `main` does
 * with the arguments and the project runs in this process (`runTiersPiped`).
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, it} from 'vitest'
import {evidenceProject, root, runProcess, runTiers, tiersBin} from './helpers/tiers-bin.js'
import {runTiersPiped} from './helpers/tiers-here.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const known = 'checkpoint, respond, review, route, escalate, status, report, contracts, verify, ci, stop-hook, verdict, lint, init'

describe.concurrent('tiers --version', () => {
  it('prints the cli package’s version and exits 0, as -v and after a command', async ({expect}) => {
    const {version} = JSON.parse(await fs.readFile(path.join(root, 'packages', 'cli', 'package.json'), 'utf8')) as {version: string}
    const folder = await evidenceProject(folders, 'verification-tiers-version-', {commit: false})
    // The bin's own output once; the short option and the option after a command are what `main` reads.
    expect(await runTiers(folder, ['--version'])).toEqual({code: 0, stdout: `${version}\n`, stderr: ''})
    for (const args of [['-v'], ['status', '--version']]) {
      expect(await runTiersPiped(folder, args)).toEqual({code: 0, stdout: `${version}\n`, stderr: ''})
    }
  })
})

describe.concurrent('did you mean', () => {
  it.for([
    [['stauts'], 'Unexpected command `stauts`, expected `status`'],
    [['verfy', 'S-01'], 'Unexpected command `verfy`, expected `verify`'],
    [['hlep'], 'Unexpected command `hlep`, expected `help`'],
    [['deploy'], `Unexpected command \`deploy\`, expected one of: ${known}`],
    [['status', '--jsn'], 'Unexpected option `--jsn`, expected `--json` (see tiers status --help)'],
    [['verify', 'S-01', '--timout=5'], 'Unexpected option `--timout`, expected `--timeout` (see tiers verify --help)'],
    [['status', '--frobnicate'], 'Unexpected option `--frobnicate`, expected one of --dir, --json, --yaml, -h/--help (see tiers status --help)']
  ] as const)('tiers %j', async ([args, message], {expect}) => {
    const folder = await evidenceProject(folders, 'verification-tiers-suggest-', {commit: false})
    expect(await runTiersPiped(folder, args)).toEqual({code: 1, stdout: '', stderr: `tiers: ${message}\n`})
  })
})

describe.concurrent('the project found from a subfolder', () => {
  /** The evidence project, with a folder two levels down holding a `.greenlight` of tiers’ state only, as a run there could leave. */
  async function nested(): Promise<{folder: string; sub: string}> {
    const folder = await evidenceProject(folders, 'verification-tiers-upward-')
    const sub = path.join(folder, 'src', 'deep')
    await fs.mkdir(path.join(folder, 'src', '.greenlight', 'tiers'), {recursive: true})
    await fs.writeFile(path.join(folder, 'src', '.greenlight', 'tiers', 'stop-hook.json'), '{}')
    await fs.mkdir(sub, {recursive: true})
    return {folder, sub}
  }

  it('tiers status and tiers contracts read the project above, past a .greenlight of state only', async ({expect}) => {
    const {folder, sub} = await nested()
    const [fromSub, fromRoot] = await Promise.all([runTiersPiped(sub, ['status']), runTiersPiped(folder, ['status'])])
    expect(fromSub).toEqual({code: 0, stderr: '', stdout: fromRoot.stdout})
    expect(fromSub.stdout.split('\n')[0]).toBe('S-01 Answer Service: verify, 0/3 rejections, undecided, never verified, next: verify')
    const contracts = await runTiersPiped(sub, ['contracts', '--json'])
    expect(contracts.code).toBe(0)
    expect(contracts.stdout).toContain('"C-02"')
  })

  it('tiers verify runs and records in the project above', async ({expect}) => {
    const {folder, sub} = await nested()
    const run = await runTiersPiped(sub, ['verify', 'S-02'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    // Piped: no progress lines, the report alone on stdout.
    expect(run.stdout.startsWith('Verification Results — Slice S-02: Answer Format (')).toBe(true)
    const status = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), 'utf8')) as {
      slices: Record<string, unknown>
    }
    expect(Object.keys(status.slices)).toEqual(['S-02'])
    await expect(fs.access(path.join(folder, 'src', '.greenlight', 'tiers', 'verification-status.json'))).rejects.toThrow()
  })

  it('the stop hook judges the project above the agent’s working folder', async ({expect}) => {
    const {folder, sub} = await nested()
    const answer = await runTiersPiped(folder, ['stop-hook'], JSON.stringify({session_id: 's1', cwd: sub}))
    expect({code: answer.code, stderr: answer.stderr}).toEqual({code: 0, stderr: ''})
    const output = JSON.parse(answer.stdout) as {decision?: string; reason?: string}
    expect(output.decision).toBe('block')
    expect(output.reason).toContain('S-01')
    // Counted in the project above, not in the state-only folder.
    await fs.access(path.join(folder, '.greenlight', 'tiers', 'stop-hook.json'))
    expect(await fs.readFile(path.join(folder, 'src', '.greenlight', 'tiers', 'stop-hook.json'), 'utf8')).toBe('{}')
  })
})

describe.concurrent('tiers status piped', () => {
  it('prints one plain line per slice, no table, no totals', async ({expect}) => {
    const folder = await evidenceProject(folders, 'verification-tiers-piped-', {commit: false})
    // Through the real bin: that its stdout is a pipe is the bin's to tell (in this process, `main` is told).
    expect(await runTiers(folder, ['status'])).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'S-01 Answer Service: verify, 0/3 rejections, undecided, never verified, next: verify',
        'S-02 Answer Format: auto, 0/3 rejections, undecided, never verified, next: verify',
        'S-03 S-03: verify, 0/3 rejections, undecided, never verified, next: verify',
        ''
      ].join('\n')
    })
  })
})

/**
 * At a terminal, through `script` (a pseudo-terminal of util-linux): the
 * output a person reads. The terminal is 80 columns wide unless COLUMNS says.
 */
const atTerminal = (cwd: string, args: string[]) =>
  runProcess('/usr/bin/script', ['-qec', [process.execPath, tiersBin, ...args].map((word) => JSON.stringify(word)).join(' '), '/dev/null'], {
    cwd,
    env: {COLUMNS: '80', NO_COLOR: '1'}
  })

describe.runIf(existsSync('/usr/bin/script')).concurrent('at a terminal', () => {
  it('tiers status is an aligned table, within the width, with totals', async ({expect}) => {
    const folder = await evidenceProject(folders, 'verification-tiers-table-', {commit: false})
    const run = await atTerminal(folder, ['status'])
    expect(run.code).toBe(0)
    const lines = run.stdout.replace(/\r\n/g, '\n').trimEnd().split('\n')
    expect(lines[0]).toMatch(/^SLICE +NAME +TIER +STATE +REJECTED +LAST ACTIVITY +NEXT$/)
    // Aligned: the tier column starts at the same place on every row.
    const tierColumn = lines[0]!.search(/TIER/i)
    for (const row of lines.slice(1, 4)) expect(row.slice(tierColumn)).toMatch(/^(verify|auto) /)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80)
    expect(lines.at(-1)).toMatch(/^3 slices: 2 verify, 1 auto; 3 undecided; 3 in progress$/)
  })

  it('tiers verify prints each check as it ends, then the time the run took', async ({expect}) => {
    const folder = await evidenceProject(folders, 'verification-tiers-progress-', {commit: false})
    const run = await atTerminal(folder, ['verify', 'S-02'])
    const lines = run.stdout.replace(/\r\n/g, '\n').split('\n')
    const progress = lines.filter((line) => /^(pass|fail|timeout|requires-human|skip)\s+\S+/.test(line))
    expect(progress.length).toBeGreaterThan(0)
    expect(progress).toContainEqual(expect.stringMatching(/^pass +S-02 C-02\.1 +answer\.txt is one line \(\d+\.\d s\)$/))
    expect(lines.some((line) => /^\d+ checks? in \d+\.\d s$/.test(line))).toBe(true)
    // Then the report.
    expect(run.stdout).toContain('Verification Results — Slice S-02: Answer Format')
  })
})
