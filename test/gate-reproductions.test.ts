/**
 * Reproductions of issue 12 that no other end-to-end test covers, through
 * the real `tiers` bin, each in a temporary copy of
 * `content/examples/greenlight-project` with `test.command` set to `true`:
 *
 * - (1) a verify contract after markdown a shortcut could take for “no
 *   contract here” (an unclosed link, `][`, a link in the heading) is still
 *   read: its slice is not auto, its checkpoint asks the human, and
 *   `tiers lint --frail` fails on its bad tier; a verify contract whose
 *   Slice field the graph disagrees with is checked all the same, with a
 *   warning;
 * - (2) a full disk under the state folder: the stop hook lets the agent stop
 *   with a warning (never exit 2, never a block it cannot count), other
 *   commands fail in one line naming the file, and nothing is left behind;
 * - (3) a symbolic link at the state folder or a state file is refused,
 *   never written through;
 * - (4) a contract of 20,000 `**` is read in seconds; a `tiers` busy reading
 *   contracts ends at once on SIGINT or SIGTERM (it used to run on until the
 *   reading was done: `signal-exit`, loaded at start by `proper-lockfile`,
 *   replaced Node’s default action with a handler a busy process never runs).
 *
 * The full disk is made by a preload (`helpers/full-disk.mjs`): a test cannot
 * fill a real disk. Linux only for the signals (they read /proc). Run
 * `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, exampleProject, root, runProcess, tiersBin} from './helpers/tiers-bin.js'
import {runTiersPiped as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

const fullDisk = pathToFileURL(path.join(root, 'test', 'helpers', 'full-disk.mjs')).href
const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary copy of the example project whose test command passes. */
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-reproductions-', 'true')

const file = (folder: string, ...parts: string[]) => path.join(folder, '.greenlight', ...parts)
const tiers = (folder: string, args: string[], input = '', env: Record<string, string | undefined> = {}): Promise<Run> =>
  runTiers(folder, args, input, {XDG_CACHE_HOME: path.join(folder, 'user-cache'), ...env})

describe.concurrent('(1) a verify contract after markdown a shortcut could misread', () => {
  const grid = '## S-01: Grid\n\n### C-01: GridApi\n\n**Verification:** auto\n'
  const contract = (before: string, heading: string, tier: string) =>
    `${before}${heading}\n\n**Slice:** S-01\n**Verification:** ${tier}\n**Acceptance Criteria:**\n- Cells are numbered from the top left\n`
  const shapes: Array<[string, string, string]> = [
    ['an unclosed link', 'See [the doc](https://x.y/d for layout.\n\n', '### C-02: GridIndex'],
    ['`][`', 'Use the ][ operator.\n\n', '### C-02: GridIndex'],
    ['an unclosed link destination', 'Grid indexes are written grid[row](\n\n', '### C-02: GridIndex'],
    ['a link in the heading', '', '### [C](x(y))-02: GridIndex']
  ]

  /** `contracts` in CONTRACTS.md (by default S-01: the auto C-01) and `files` in contracts/ (such as C-02), with no GRAPH.json. */
  async function gridProject(files: Record<string, string>, contracts = grid): Promise<string> {
    const folder = await project()
    await fs.rm(file(folder, 'GRAPH.json'))
    await fs.rm(file(folder, 'contracts'), {recursive: true})
    await fs.mkdir(file(folder, 'contracts'))
    await fs.writeFile(file(folder, 'config.json'), '{"test": {"command": "true"}}\n')
    await fs.writeFile(file(folder, 'CONTRACTS.md'), contracts)
    for (const [name, value] of Object.entries(files)) await fs.writeFile(file(folder, 'contracts', name), value)
    return folder
  }

  /**
   * One project for every shape, verified once (`tiers verify` lints the
   * contract files, a run's dearest part): slice S-0n is the auto C-0n in
   * CONTRACTS.md, and the verify contract C-1n after the nth shape in a file
   * of its own, so that slice is verify only if that contract is read.
   */
  let verified: Promise<{folder: string; verify: Run}> | undefined
  const verifiedShapes = () =>
    (verified ??= (async () => {
      let contracts = ''
      const files: Record<string, string> = {}
      for (const [index, [, before, heading]] of shapes.entries()) {
        const n = index + 1
        contracts += `## S-0${n}: Grid ${n}\n\n### C-0${n}: GridApi${n}\n\n**Verification:** auto\n\n`
        files[`C-1${n}.md`] = contract(before, heading.replace('02: GridIndex', `1${n}: GridIndex${n}`), 'verify').replace(
          '**Slice:** S-01',
          `**Slice:** S-0${n}`
        )
      }
      const folder = await gridProject(files, contracts)
      return {folder, verify: await tiers(folder, ['verify', '--all'])}
    })())

  it.for(shapes)('after %s: the slice is verify, and its checkpoint asks the human', async ([shape], {expect}) => {
    const {folder, verify} = await verifiedShapes()
    expect({code: verify.code, stderr: verify.stderr}).toEqual({code: 0, stderr: ''})
    const n = shapes.findIndex(([name]) => name === shape) + 1
    const checkpoint = await tiers(folder, ['checkpoint', `S-0${n}`])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toMatch(
      new RegExp(
        `^ALL TESTS PASSING — Slice S-0${n}: Grid ${n}\\n\\nPlease verify the output matches your intent\\.\\n\\nAcceptance criteria:\\n {2}\\[ \\] Cells are numbered from the top left\\n`
      )
    )
  })

  it.for(shapes)('after %s: `tiers lint --frail` fails on its bad tier', async ([, before, heading], {expect}) => {
    const folder = await gridProject({'C-02.md': contract(before, heading, 'sometimes')})
    const run = await tiers(folder, ['lint', '--frail', '--no-color', '.greenlight/contracts'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^\.greenlight\/contracts\/C-02\.md\n\d+:19-\d+:28 error Unexpected verification tier `sometimes` on C-02 GridIndex, expected `auto` or `verify` verification-tier remark-lint\n\n✖ 1 error\n$/
    )
  })
})

describe.runIf(process.platform !== 'win32').concurrent('(2) a full disk under the state folder', () => {
  /** Run the real bin with the full-disk preload on `.greenlight/tiers`. */
  function onFullDisk(folder: string, args: string[], input = ''): Promise<Run> {
    return runProcess(process.execPath, ['--import', fullDisk, tiersBin, ...args], {
      cwd: folder,
      input,
      env: {
        TIERS_TEST_FULL_DISK: file(folder, 'tiers'),
        XDG_CACHE_HOME: path.join(folder, 'user-cache'),
        TIERS_MAX_BLOCKS: undefined,
        GITHUB_ACTIONS: undefined
      }
    })
  }

  const noSpace = 'cannot be written (ENOSPC: no space left on device)'
  /** What the checkpoint, and so the stop hook, says of a slice never verified. */
  const neverVerified = (slice: string) =>
    `VERIFICATION MISSING — Slice ${slice}\n\nNo verification run is recorded for this slice: the checkpoint opens only\non a passing run.`
  const exampleCriteria = [
    'C-01.1: Campaigns render as cards in a 3-column grid on a 1280px wide screen',
    'C-01.2: Each card shows the campaign name, its status and its spend',
    'C-01.3: Clicking a card opens /campaigns/{id}',
    'C-03.1: A paused campaign shows a grey "Paused" badge',
    'C-03.2: A live campaign shows a green "Live" badge',
    'C-06.1: Clicking "Export" downloads campaigns.csv with one row per campaign',
    'C-06.2: Amounts in the file use the account currency'
  ]
    .map((criterion) => `  - ${criterion.replace(':', ' (for a person at the checkpoint):')}`)
    .join('\n')

  it('the stop hook lets the agent stop, with a warning that says what it would have said, and leaves nothing behind', async ({expect}) => {
    const folder = await project()
    const run = await onFullDisk(
      folder,
      ['stop-hook'],
      JSON.stringify({session_id: 'session-1', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false})
    )
    expect(run).toEqual({
      code: 0,
      stdout:
        JSON.stringify({
          systemMessage: `WARNING: ${file(folder, 'tiers', 'stop-hook.json')}: ${noSpace}; the stop hook cannot count its blocks, so it lets the agent stop.\nThe stop hook would have blocked: HOLD: Cannot stop - verification not run.\n\n${neverVerified('S-01: Campaign Cards')}\n\n${neverVerified('S-02: Currency Formatting')}\n\nRun tiers verify --all to verify all acceptance criteria before completing.\nA verify slice is done only when the person answers its checkpoint, in their own terminal (tiers review <slice>): show it (tiers checkpoint <slice>) and stop for their answer; never answer it yourself.\nCriteria remaining:\n${exampleCriteria}`
        }) + '\n',
      // The contracts cache is written, in the user's cache folder.
      stderr: ''
    })
    // No temporary file, no lock folder.
    expect(await fs.readdir(file(folder, 'tiers'))).toEqual([])
  })

  it('respond and verify fail in one line naming the file, exit 2, and leave nothing behind', async ({expect}) => {
    const folder = await project()
    const cases: Array<[string[], string]> = [
      [['respond', 'S-01', 'the grid shows 2 columns'], 'S-01.json'],
      [['verify', 'S-01'], 'verification-status.json']
    ]
    for (const [args, written] of cases) {
      const run = await onFullDisk(folder, args)
      expect({code: run.code, stderr: run.stderr}).toEqual({code: 2, stderr: `tiers: .greenlight/tiers/${written}: ${noSpace}\n`})
      expect(await fs.readdir(file(folder, 'tiers'))).toEqual([])
    }
  })
})

describe.concurrent('(1) a contract the graph leaves out', () => {
  /** A verify contract `id` of one criterion whose Slice field names `slice`, in its own file. */
  const sliced = (id: string, name: string, slice: string, criterion: string) =>
    `### ${id}: ${name}\n\n**Slice:** ${slice}\n**Verification:** verify\n**Acceptance Criteria:**\n- ${criterion}\n`

  // Both in one project, verified once: C-07 names S-01, of the graph; C-08 names S-09, which the graph does not have.
  it('a contract the graph lists nowhere, whose Slice field names a slice of the graph, is checked with that slice, with a warning; one whose Slice field names a slice the graph does not have is a slice of its own, which the stop hook waits for', async ({
    expect
  }) => {
    const folder = await project()
    await fs.writeFile(file(folder, 'contracts', 'C-07.md'), sliced('C-07', 'GridExport', 'S-01', "The export keeps the grid's order"))
    await fs.writeFile(file(folder, 'contracts', 'C-08.md'), sliced('C-08', 'GridImport', 'S-09', "The import keeps the file's order"))
    /** The warnings of both, each file named by `name`. */
    const warnings = (name: (file: string) => string) =>
      `tiers: warning: ${name('C-07.md')}:3: C-07 GridExport is in slice S-01, but GRAPH.json does not list it there; it is checked with S-01: list it in GRAPH.json, or correct its slice\n` +
      `tiers: warning: ${name('C-08.md')}:3: C-08 GridImport is in slice S-09, which GRAPH.json does not have; it is checked as a slice of its own: add S-09 to GRAPH.json, or correct its slice\n`
    const said = warnings((name) => `.greenlight/contracts/${name}`)
    const status = await tiers(folder, ['status', 'S-09'])
    expect({code: status.code, stderr: status.stderr}).toEqual({code: 0, stderr: said})
    const stop = () => tiers(folder, ['stop-hook'], JSON.stringify({session_id: 'session-1', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false}))
    const blocked = await stop()
    expect({code: blocked.code, stderr: blocked.stderr}).toEqual({code: 0, stderr: warnings((name) => file(folder, 'contracts', name))})
    expect(JSON.parse(blocked.stdout).decision).toBe('block')
    const verify = await tiers(folder, ['verify', '--all'])
    expect({code: verify.code, stderr: verify.stderr}).toEqual({code: 0, stderr: said})
    const checkpoint = await tiers(folder, ['checkpoint', 'S-01'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: said})
    expect(checkpoint.stdout).toContain("  [ ] The export keeps the grid's order\n")
    // C-08's criterion is among those left for a human.
    expect(JSON.parse((await stop()).stdout).systemMessage).toContain("\n  - C-08.1: The import keeps the file's order")
  })

  it('a second contract of an id the graph lists is checked with its own Slice field, and is a problem of the project', async ({expect}) => {
    const folder = await project()
    await fs.writeFile(
      file(folder, 'contracts', 'C-07.md'),
      "### C-03: BadgeCopy\n\n**Slice:** S-01\n**Verification:** verify\n**Acceptance Criteria:**\n- The badge reads the campaign's state\n"
    )
    const status = await tiers(folder, ['status', 'S-01'])
    expect({code: status.code, stderr: status.stderr}).toEqual({code: 0, stderr: ''})
    expect(status.stdout).toContain(
      'problem: .greenlight/contracts/C-07.md:1: Unexpected second contract C-03 BadgeCopy, the id of the contract at .greenlight/CONTRACTS.md:54, which GRAPH.json lists; expected an id of its own\n'
    )
    // Its criterion is still read with its slice, but the gate passes nothing until the id is its own.
    expect(status.stdout).toMatch(/S-01 .*verify/)
    await tiers(folder, ['verify', 'S-01'])
    const checkpoint = await tiers(folder, ['checkpoint', 'S-01'])
    expect(checkpoint.code).toBe(1)
    expect(checkpoint.stdout).toContain('VERIFICATION UNCHECKED — Slice S-01: Campaign Cards\n')
    expect(checkpoint.stdout).toContain('  .greenlight/contracts/C-07.md:1: Unexpected second contract C-03 BadgeCopy')
  })

  it('a verify contract in no slice at all is a problem of the project, with its file and line', async ({expect}) => {
    const folder = await project()
    await fs.writeFile(file(folder, 'contracts', 'C-07.md'), '### C-07: GridExport\n\n**Verification:** verify\n')
    const run = await tiers(folder, ['status', 'S-01'])
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    expect(run.stdout).toContain(
      'problem: .greenlight/contracts/C-07.md:1: Unexpected verify contract C-07 GridExport in no slice, expected it under a slice in GRAPH.json, so that a checkpoint shows it\n'
    )
    const listed = await tiers(folder, ['contracts', '--json'])
    expect(JSON.parse(listed.stdout).problems).toEqual([
      {
        file: '.greenlight/contracts/C-07.md',
        line: 1,
        message: 'Unexpected verify contract C-07 GridExport in no slice, expected it under a slice in GRAPH.json, so that a checkpoint shows it'
      }
    ])
  })
})

describe.runIf(process.platform !== 'win32').concurrent('(3) a symbolic link in the state folder', () => {
  const refused = 'Unexpected symbolic link, expected a folder: tiers writes its own files only inside the project, never through a link'

  /** The example project, and a folder beside it that a link in its state folder points to. */
  async function linked(): Promise<{folder: string; outside: string}> {
    const folder = await project()
    const outside = path.join(folder, 'outside')
    await fs.mkdir(outside)
    return {folder, outside}
  }

  it('a tiers folder that is a link: respond and verify fail naming it, the stop hook lets the agent stop, and nothing is written where it points', async ({
    expect
  }) => {
    const {folder, outside} = await linked()
    await fs.symlink(outside, file(folder, 'tiers'))
    for (const args of [
      ['respond', 'S-01', 'the grid shows 2 columns'],
      ['verify', 'S-01']
    ]) {
      const run = await tiers(folder, args)
      expect({code: run.code, stderr: run.stderr}).toEqual({code: 2, stderr: `tiers: .greenlight/tiers: ${refused}\n`})
    }
    const hook = await tiers(folder, ['stop-hook'], JSON.stringify({session_id: 'session-1', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false}))
    expect(hook.code).toBe(0)
    expect(JSON.parse(hook.stdout).systemMessage).toMatch(
      new RegExp(
        `^WARNING: ${file(folder, 'tiers').replaceAll('/', '\\/')}: Unexpected symbolic link, expected a folder: .*; the stop hook cannot count its blocks, so it lets the agent stop\\.`
      )
    )
    expect(await fs.readdir(outside)).toEqual([])
  })

  it('a state file that is a link: respond fails naming it, and the file it points to is unchanged', async ({expect}) => {
    const {folder, outside} = await linked()
    await fs.mkdir(file(folder, 'tiers'))
    const state = JSON.stringify({version: 1, slice: 'S-01', rejectionCount: 0, rejections: [], escalations: [], decision: null}) + '\n'
    await fs.writeFile(path.join(outside, 'S-01.json'), state)
    await fs.symlink(path.join(outside, 'S-01.json'), file(folder, 'tiers', 'S-01.json'))
    const run = await tiers(folder, ['respond', 'S-01', 'the grid shows 2 columns'])
    expect({code: run.code, stderr: run.stderr}).toEqual({
      code: 2,
      stderr:
        'tiers: .greenlight/tiers/S-01.json: Unexpected symbolic link, expected a regular file: tiers writes its own files only inside the project, never through a link\n'
    })
    expect(await fs.readdir(outside)).toEqual(['S-01.json'])
    expect(await fs.readFile(path.join(outside, 'S-01.json'), 'utf8')).toBe(state)
  })
})

describe('(4) contracts that are slow to read', () => {
  it.concurrent('reads a contract of 20,000 `**` in seconds', async ({expect}) => {
    const folder = await project()
    await fs.writeFile(file(folder, 'contracts', 'C-06.md'), `### C-06: Export\n\n${'**'.repeat(20_000)}\n`)
    const started = Date.now()
    const run = await tiers(folder, ['report', 'S-02'])
    // `report` lists the deprecation among its own warnings, on stdout.
    expect({code: run.code, stderr: run.stderr}).toEqual({code: 0, stderr: ''})
    expect(run.stdout).toContain('  C-06 Export: verify (default) — criteria: 0, steps: 0\n')
    // It ran 90 s, then crashed. Seconds here, however busy the machine.
    expect(Date.now() - started).toBeLessThan(30_000)
  })
})

/** CPU time of process `pid` so far, in ms (user and system); 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    // utime and stime are the 14th and 15th fields, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

// One at a time, after the others: a second is the limit.
describe.runIf(process.platform === 'linux')('(4) a tiers busy reading contracts, on a signal', () => {
  // Emphasis and link openers markdown can only resolve by comparing each with the others: a long read (many seconds).
  const slow = `### C-06: Export\n\n${'**a'.repeat(20_000)}\n${'[*'.repeat(20_000)}\n${'*_'.repeat(20_000)}\n`

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s ends within a second, writing nothing',
    async (signal) => {
      const folder = await project()
      await fs.writeFile(file(folder, 'contracts', 'C-06.md'), slow)
      const env: NodeJS.ProcessEnv = {...process.env, XDG_CACHE_HOME: path.join(folder, 'user-cache')}
      const child = spawn(process.execPath, [tiersBin, 'respond', 'S-02', 'the grid shows 2 columns'], {cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe']})
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      child.stdout.resume()
      const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null; at: number}>((resolve) => {
        child.on('close', (code, signal) => resolve({code, signal, at: Date.now()}))
      })
      let done = false
      void ended.then(() => (done = true))
      try {
        // Past its start (about half a second of CPU: all of a `respond` of the example takes no more), into the reading.
        const until = Date.now() + 20_000
        while (cpuMs(child.pid!) < 1000 && !done && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
        expect(done).toBe(false)
        const sent = Date.now()
        child.kill(signal)
        const stop = setTimeout(() => child.kill('SIGKILL'), 5000)
        const end = await ended
        clearTimeout(stop)
        expect({code: end.code, signal: end.signal, stderr}).toEqual({code: null, signal, stderr: ''})
        expect(end.at - sent).toBeLessThan(1000)
        // Nothing recorded, and no lock.
        await expect(fs.access(file(folder, 'tiers', 'S-02.json'))).rejects.toThrow()
        expect((await fs.readdir(file(folder, 'tiers')).catch(() => [])).filter((name) => name.endsWith('.lock'))).toEqual([])
      } finally {
        child.kill('SIGKILL')
      }
    },
    40_000
  )
})
