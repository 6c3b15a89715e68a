/**
 * The command line of `tiers`, in the cli's `main` (`tiers --help` through
 * the real bin): each command’s own
 * help (`tiers <command> --help`, `tiers help <command>`), options refused in
 * the tool’s own words on one line, and arguments a command would ignore
 * refused, naming them. Nothing is read or written for a refused command
 * line.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, exampleProject, runTiers} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'
import {runTiersHere} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-help-')

const tiers = (cwd: string, ...args: string[]): Promise<Run> => runTiersHere(cwd, args)
const refused = (message: string): Run => ({code: 1, stdout: '', stderr: `tiers: ${message}\n`})

let globalHelp: Promise<Run> | undefined
/** `tiers --help`, run once for the tests that compare with it. */
const runGlobalHelp = async (): Promise<Run> => (globalHelp ??= project().then((folder) => runTiers(folder, ['--help'])))

/** The usage of each command of the gate, as its help’s first line gives it. */
const usages: Record<string, string> = {
  checkpoint: 'checkpoint <slice>',
  respond: 'respond <slice> <text…> | --undo <slice>',
  route: 'route <slice> <1|2|3> [--detail <text>]',
  escalate: 'escalate <slice> <1|2|3>',
  status: 'status [slice]',
  report: 'report <slice>',
  contracts: 'contracts [--slice <slice>]',
  verify: 'verify <slice> | --all [--timeout <s>]',
  'stop-hook': 'stop-hook',
  verdict: 'verdict <text…> | -'
}

describe.concurrent('each command’s help', () => {
  it('prints `tiers checkpoint --help` exactly: usage, what it does, its options, its exit codes', async ({expect}) => {
    const folder = await project()
    expect(await tiers(folder, 'checkpoint', '--help')).toEqual({
      code: 0,
      stderr: '',
      stdout: `Usage: tiers checkpoint <slice>

Print the slice’s Verify checkpoint: the acceptance criteria, then the steps,
of each of its verify contracts. The checkpoint opens only on the slice’s
latest \`tiers verify\` run, passing, with nothing changed since (contracts,
git HEAD, uncommitted changes); otherwise it says what is missing, failed or
changed. For an auto slice it says no checkpoint is needed. Writes nothing.

A change that asks less of a person than they approved (verify to auto, a
criterion or step removed or reworded, a contract removed, the slice’s human
check retired) keeps the slice verify until a person approves it as it is:
its checkpoint lists each change, old and new, with its file and line. With
--base, a change since that git revision counts too, unless a person
approved the slice as it is.

Options:
  --dir <folder>    project folder (default: the nearest one, from here upward)
  --json            print JSON for orchestrators
  --yaml            print YAML (verify’s result as the status file keeps it)
  --base <ref>      the git revision the branch started from: ci judges only
                    what changed since; checkpoint, review and respond hold a
                    slice lowered since
  -h, --help        show this help

Exit codes:
  0    the checkpoint, or the slice is auto
  1    the gate is closed (no fresh passing verification), or a usage error
  2    a broken file (named, with its line when it has one)
  3    a bug in tiers (\`--debug\` prints its stack)
`
    })
  })

  it.for(Object.entries(usages))('`tiers %s --help` prints its own help, not the global one', async ([command, usage], {expect}) => {
    const folder = await project()
    const [long, global] = await Promise.all([tiers(folder, command, '--help'), runGlobalHelp()])
    expect({code: long.code, stderr: long.stderr}).toEqual({code: 0, stderr: ''})
    expect(long.stdout.startsWith(`Usage: tiers ${usage}\n\n`)).toBe(true)
    expect(long.stdout).toMatch(/\nOptions:\n(?: {2}.*\n)+\nExit codes:\n {2}0 {4}\S/)
    expect(long.stdout).not.toBe(global.stdout)
    // Every line fits a terminal.
    for (const line of long.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80)
    // Only the options the command takes, and the global ones.
    expect(long.stdout.includes('--timeout')).toBe(command === 'verify')
    expect(long.stdout.includes('--detail')).toBe(command === 'route')
    expect(long.stdout.includes('--slice')).toBe(command === 'contracts')
    expect(long.stdout.includes('--undo')).toBe(command === 'respond')
  })

  // Every command’s help goes through the same dispatch: a command with arguments and one without stand for all.
  it.for(['checkpoint', 'status'])(
    '`tiers %s -h`, `tiers help <command>` and `--help` after arguments print what `--help` prints',
    async (command, {expect}) => {
      const folder = await project()
      const [long, short, viaHelp, withSlice] = await Promise.all([
        tiers(folder, command, '--help'),
        tiers(folder, command, '-h'),
        tiers(folder, 'help', command),
        tiers(folder, command, 'S-01', '--help')
      ])
      expect({code: long.code, stderr: long.stderr}).toEqual({code: 0, stderr: ''})
      expect(short).toEqual(long)
      expect(viaHelp).toEqual(long)
      expect(withSlice).toEqual(long)
    }
  )

  it('lists every command with its usage in `tiers --help`, and `tiers help` is that help', async ({expect}) => {
    const folder = await project()
    const [global, help, helpHelp] = await Promise.all([runGlobalHelp(), tiers(folder, 'help'), tiers(folder, 'help', 'help')])
    for (const usage of [...Object.values(usages), 'lint [paths…]', 'help [command]']) expect(global.stdout).toContain(`\n  ${usage} `)
    // Each summary starts in one column, at least two spaces after its usage: none runs into the summaries.
    const rows = /\nCommands:\n([\s\S]*?)\n\n/.exec(global.stdout)![1]!.split('\n')
    const columns = rows.map((row) => {
      const [, usage = '', gap = ''] = /^ {2}(\S.*?)( {2,})\S/.exec(row) ?? []
      return {usage, column: 2 + usage.length + gap.length}
    })
    expect(columns.map(({usage}) => usage)).toEqual(expect.arrayContaining([...Object.values(usages), 'lint [paths…]', 'help [command]']))
    expect(new Set(columns.map(({column}) => column)).size, rows.join('\n')).toBe(1)
    expect(global.stdout).toContain('\n`tiers <command> --help` (or `tiers help <command>`) shows a command’s usage,\noptions and exit codes.\n')
    expect(help).toEqual(global)
    expect(helpHelp).toEqual(global)
  })

  it('`tiers help lint` is `tiers lint --help`; an unknown command’s help is an error', async ({expect}) => {
    const folder = await project()
    const [lint, viaHelp, unknown, unknownFlag, extra] = await Promise.all([
      tiers(folder, 'lint', '--help'),
      tiers(folder, 'help', 'lint'),
      tiers(folder, 'help', 'chekpoint'),
      tiers(folder, 'chekpoint', '--help'),
      tiers(folder, 'help', 'status', 'route')
    ])
    expect(viaHelp).toEqual(lint)
    const message = 'Unexpected command `chekpoint`, expected `checkpoint`'
    expect(unknown).toEqual(refused(message))
    expect(unknownFlag).toEqual(refused(message))
    expect(extra).toEqual(refused('Unexpected extra argument `route`, expected `tiers help [command]`'))
  })
})

describe.concurrent('options refused in the tool’s words, on one line', () => {
  it.for([
    [
      ['checkpoint', 'S-01', '--frobnicate'],
      'Unexpected option `--frobnicate`, expected one of --dir, --json, --yaml, --base, -h/--help (see tiers checkpoint --help)'
    ],
    [
      ['verify', '--frobnicate=3', 'S-01'],
      'Unexpected option `--frobnicate`, expected one of --dir, --json, --yaml, --timeout, --env-allow, --all, -h/--help (see tiers verify --help)'
    ],
    [['route', 'S-01', '1', '-x'], 'Unexpected option `-x`, expected one of --dir, --json, --yaml, --detail, -h/--help (see tiers route --help)'],
    [
      ['--frobnicate'],
      'Unexpected option `--frobnicate`, expected one of --dir, --json, --yaml, --detail, --timeout, --env-allow, --slice, --all, --undo, --agent, --base, -h/--help, -v/--version, --debug (see tiers --help)'
    ],
    [['status', '--dir'], 'Unexpected `--dir` without a value, expected `--dir <folder>` (see tiers status --help)'],
    [['status', '--json=yes'], 'Unexpected value for `--json`, expected `--json` alone (see tiers status --help)'],
    [
      ['verify', 'S-01', '--timeout', '-2'],
      'Unexpected `--timeout` followed by `-2`, expected a value after it, or `--timeout=-2` if `-2` is the value (see tiers verify --help)'
    ],
    [
      ['status', '--dir', '--json'],
      'Unexpected `--dir` followed by `--json`, expected a value after it, or `--dir=--json` if `--json` is the value (see tiers status --help)'
    ],
    [['checkpoint', 'S-01', '--all'], 'Unexpected `--all` with `tiers checkpoint`, expected it only with `tiers verify`'],
    [['respond', 'S-01', 'no', '--detail', 'more'], 'Unexpected `--detail` with `tiers respond`, expected it only with `tiers route`'],
    [['status', '--timeout', '5'], 'Unexpected `--timeout` with `tiers status`, expected it only with `tiers verify`']
  ] as const)('tiers %j', async ([args, message], {expect}) => {
    const folder = await project()
    expect(await tiers(folder, ...args)).toEqual(refused(message))
    await expect(fs.access(path.join(folder, '.greenlight', 'tiers'))).rejects.toThrow()
  })
})

describe.concurrent('arguments a command would ignore', () => {
  it.for([
    [['checkpoint', 'S-01', 'S-02'], 'Unexpected extra argument `S-02`, expected `tiers checkpoint <slice>`'],
    [['route', 'S-01', '1', 'now'], 'Unexpected extra argument `now`, expected `tiers route <slice> <1|2|3> [--detail <text>]`'],
    [['escalate', 'S-01', '3', 'please'], 'Unexpected extra argument `please`, expected `tiers escalate <slice> <1|2|3>`'],
    [['status', 'S-01', 'S-02', 'S-03'], 'Unexpected extra arguments `S-02`, `S-03`, expected `tiers status [slice]`'],
    [['report', 'S-01', 'S-02'], 'Unexpected extra argument `S-02`, expected `tiers report <slice>`'],
    [['contracts', 'S-01'], 'Unexpected extra argument `S-01`, expected `tiers contracts [--slice <slice>]`'],
    [['verify', 'S-01', 'S-02'], 'Unexpected extra argument `S-02`, expected `tiers verify <slice> | --all [--timeout <s>]`'],
    [['stop-hook', 'now'], 'Unexpected extra argument `now`, expected `tiers stop-hook`'],
    [['checkpoint', 'S-01', 'a\nb'], 'Unexpected extra argument "a\\nb", expected `tiers checkpoint <slice>`']
  ] as const)('tiers %j is refused, naming them (exit 1)', async ([args, message], {expect}) => {
    const folder = await project()
    expect(await tiers(folder, ...args)).toEqual(refused(message))
    await expect(fs.access(path.join(folder, '.greenlight', 'tiers'))).rejects.toThrow()
  })

  it('takes free text after respond and verdict', async ({expect}) => {
    const folder = await project()
    const [respond, verdict] = await Promise.all([tiers(folder, 'respond', 'S-01', 'two', 'columns', 'only'), tiers(folder, 'verdict', 'PASS', 'all', 'good')])
    expect(respond.code).toBe(0)
    expect(respond.stdout).toMatch(/^Recorded as feedback: "two columns only"\n\nYour feedback: "two columns only"\n/)
    expect(verdict).toEqual({code: 0, stdout: 'PASS (job: pass): all good\n', stderr: ''})
  })
})
