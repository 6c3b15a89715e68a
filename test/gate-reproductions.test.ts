/**
 * Reproductions of issue 12 that no other end-to-end test covers, through
 * the real `tiers` bin, each in a temporary copy of
 * `content/examples/greenlight-project` with `test.command` set to `true`:
 *
 * - (1) a verify contract after markdown a shortcut could take for “no
 *   contract here” (an unclosed link, `][`, a link in the heading) is still
 *   read: its slice is not auto, its checkpoint asks the human, and
 *   `tiers lint --frail` fails on its bad tier;
 * - (2) a full disk under the state folder: the stop hook lets the agent stop
 *   with a warning (never exit 2, never a block it cannot count), other
 *   commands fail in one line, and nothing is left behind;
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
import {builtBin, exampleProject, root, runProcess, runTiers, tiersBin} from './helpers/tiers-bin.js'
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

  /** S-01: the auto C-01 in CONTRACTS.md, and C-02 in its own file. */
  async function gridProject(text: string): Promise<string> {
    const folder = await project()
    await fs.rm(file(folder, 'GRAPH.json'))
    await fs.rm(file(folder, 'contracts'), {recursive: true})
    await fs.mkdir(file(folder, 'contracts'))
    await fs.writeFile(file(folder, 'config.json'), '{"test": {"command": "true"}}\n')
    await fs.writeFile(file(folder, 'CONTRACTS.md'), grid)
    await fs.writeFile(file(folder, 'contracts', 'C-02.md'), text)
    return folder
  }

  it.for(shapes)('after %s: the slice is verify, and its checkpoint asks the human', async ([, before, heading], {expect}) => {
    const folder = await gridProject(contract(before, heading, 'verify'))
    const verify = await tiers(folder, ['verify', 'S-01'])
    expect({code: verify.code, stderr: verify.stderr}).toEqual({code: 0, stderr: ''})
    const checkpoint = await tiers(folder, ['checkpoint', 'S-01'])
    expect({code: checkpoint.code, stderr: checkpoint.stderr}).toEqual({code: 0, stderr: ''})
    expect(checkpoint.stdout).toMatch(/^ALL TESTS PASSING — Slice S-01: Grid\n\nPlease verify the output matches your intent\.\n\nAcceptance criteria:\n {2}\[ \] Cells are numbered from the top left\n/)
  })

  it.for(shapes)('after %s: `tiers lint --frail` fails on its bad tier', async ([, before, heading], {expect}) => {
    const folder = await gridProject(contract(before, heading, 'sometimes'))
    const run = await tiers(folder, ['lint', '--frail', '--no-color', '.greenlight/contracts'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^\.greenlight\/contracts\/C-02\.md\n\d+:19-\d+:28 error Unexpected verification tier `sometimes` on C-02 GridIndex, expected `auto` or `verify` verification-tier remark-lint\n\n✖ 1 error\n$/)
  })
})

describe.runIf(process.platform !== 'win32').concurrent('(2) a full disk under the state folder', () => {
  /** Run the real bin with the full-disk preload on `.greenlight/tiers`. */
  function onFullDisk(folder: string, args: string[], input = ''): Promise<Run> {
    return runProcess(process.execPath, ['--import', fullDisk, tiersBin, ...args], {
      cwd: folder,
      input,
      env: {TIERS_TEST_FULL_DISK: file(folder, 'tiers'), XDG_CACHE_HOME: path.join(folder, 'user-cache'), TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined}
    })
  }

  const cacheWarning = (folder: string) => `tiers: warning: ${file(folder, 'tiers', '.contracts-cache.json')}: cannot be written (ENOSPC); each run parses the contracts again\n`

  it('the stop hook lets the agent stop, with a warning that says what it would have said, and leaves nothing behind', async ({expect}) => {
    const folder = await project()
    const run = await onFullDisk(folder, ['stop-hook'], JSON.stringify({session_id: 'session-1', cwd: folder, hook_event_name: 'Stop', stop_hook_active: false}))
    expect(run).toEqual({
      code: 0,
      stdout:
        JSON.stringify({
          systemMessage:
            'WARNING: ENOSPC: no space left on device, write; the stop hook cannot count its blocks, so it lets the agent stop.\nThe stop hook would have blocked: HOLD: Cannot stop - verification not run.\nRun tiers verify --all to verify all acceptance criteria before completing.\nCriteria remaining: none found'
        }) + '\n',
      stderr: cacheWarning(folder)
    })
    // No temporary file, no lock folder.
    expect(await fs.readdir(file(folder, 'tiers'))).toEqual([])
  })

  it('respond and verify fail in one line, exit 2, and leave nothing behind', async ({expect}) => {
    const folder = await project()
    const relativeWarning = `tiers: warning: ${path.join('.greenlight', 'tiers', '.contracts-cache.json')}: cannot be written (ENOSPC); each run parses the contracts again\n`
    for (const args of [['respond', 'S-01', 'the grid shows 2 columns'], ['verify', 'S-01']]) {
      const run = await onFullDisk(folder, args)
      expect({code: run.code, stderr: run.stderr}).toEqual({code: 2, stderr: `${relativeWarning}tiers: ENOSPC: no space left on device, write\n`})
      expect(await fs.readdir(file(folder, 'tiers'))).toEqual([])
    }
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

  it.each(['SIGINT', 'SIGTERM'] as const)('on %s ends within a second, writing nothing', async (signal) => {
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
      // Past its start (about half a second of CPU), into the reading.
      const until = Date.now() + 20_000
      while (cpuMs(child.pid!) < 1500 && !done && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
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
  }, 40_000)
})
