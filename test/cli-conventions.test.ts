/**
 * The conventions a person expects of a command line, through the real bin:
 * `--version`, a suggestion for a mistyped command or option, the project
 * found from a subfolder as git finds `.git` (for every command, the stop
 * hook and verify too), and plain, stable lines when the output is piped.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, it} from 'vitest'
import {evidenceProject, root, runTiers} from './helpers/tiers-bin.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const known = 'checkpoint, respond, route, escalate, status, report, contracts, verify, stop-hook, verdict, lint, init'

describe.concurrent('tiers --version', () => {
  it('prints the cli package’s version and exits 0, as -v and after a command', async ({expect}) => {
    const {version} = JSON.parse(await fs.readFile(path.join(root, 'packages', 'cli', 'package.json'), 'utf8')) as {version: string}
    const folder = await evidenceProject(folders, 'verification-tiers-version-', {commit: false})
    for (const args of [['--version'], ['-v'], ['status', '--version']]) {
      expect(await runTiers(folder, args)).toEqual({code: 0, stdout: `${version}\n`, stderr: ''})
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
    [
      ['verify', 'S-01', '--timout=5'],
      'Unexpected option `--timout`, expected `--timeout` (see tiers verify --help)'
    ],
    [['status', '--frobnicate'], 'Unexpected option `--frobnicate`, expected one of --dir, --json, --yaml, -h/--help (see tiers status --help)']
  ] as const)('tiers %j', async ([args, message], {expect}) => {
    const folder = await evidenceProject(folders, 'verification-tiers-suggest-', {commit: false})
    expect(await runTiers(folder, args)).toEqual({code: 1, stdout: '', stderr: `tiers: ${message}\n`})
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
    const [fromSub, fromRoot] = await Promise.all([runTiers(sub, ['status']), runTiers(folder, ['status'])])
    expect(fromSub).toEqual({code: 0, stderr: '', stdout: fromRoot.stdout})
    expect(fromSub.stdout.split('\n')[0]).toBe('S-01 Answer Service: verify, 0/3 rejections, undecided, next: checkpoint')
    const contracts = await runTiers(sub, ['contracts', '--json'])
    expect(contracts.code).toBe(0)
    expect(contracts.stdout).toContain('"C-02"')
  })

  it('tiers verify runs and records in the project above', async ({expect}) => {
    const {folder, sub} = await nested()
    const run = await runTiers(sub, ['verify', 'S-02'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    // Piped: no progress lines, the report alone on stdout.
    expect(run.stdout.startsWith('Verification Results — Slice S-02: Answer Format (')).toBe(true)
    const status = JSON.parse(await fs.readFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), 'utf8')) as {slices: Record<string, unknown>}
    expect(Object.keys(status.slices)).toEqual(['S-02'])
    await expect(fs.access(path.join(folder, 'src', '.greenlight', 'tiers', 'verification-status.json'))).rejects.toThrow()
  })

  it('the stop hook judges the project above the agent’s working folder', async ({expect}) => {
    const {folder, sub} = await nested()
    const answer = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 's1', cwd: sub}))
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
    expect(await runTiers(folder, ['status'])).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'S-01 Answer Service: verify, 0/3 rejections, undecided, next: checkpoint',
        'S-02 Answer Format: auto, 0/3 rejections, undecided, next: nothing',
        'S-03 S-03: verify, 0/3 rejections, undecided, next: checkpoint',
        ''
      ].join('\n')
    })
  })
})
