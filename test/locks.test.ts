/**
 * The state file’s lock through the real bin: a `tiers respond` is stopped
 * (SIGSTOP, by the preload `helpers/pause.mjs`) while it holds the lock of
 * `S-01.json`, as a suspended laptop or a stopped job would be; another
 * `tiers` takes the lock over once it looks stale (its time is set back, as
 * 10 s of silence would leave it) and records its own reply; then the first
 * is resumed. No reply may be lost, no stack trace printed, and no lock
 * left behind. SIGINT and SIGTERM end a holder within a second, releasing
 * its lock.
 *
 * Linux only: the tests read a process’s state in /proc. Run `npx tsc -b`
 * first: the bin is `packages/cli/dist/bin.js`.
 */
import {spawn} from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, exampleProject, root, runTiers, tiersBin} from './helpers/tiers-bin.js'

const preload = pathToFileURL(path.join(root, 'test', 'helpers', 'pause.mjs')).href
// The example sets the deprecated `workflow.visual_checkpoint`, which only `init`, `contracts` and `report` say: the gate’s commands say nothing of it.
const warningLine = ''

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A temporary folder holding a copy of the example’s `.greenlight`. */
const project = (): Promise<string> => exampleProject(folders, 'verification-tiers-locks-')

const stateFile = (folder: string) => path.join(folder, '.greenlight', 'tiers', 'S-01.json')
const lockFolder = (folder: string) => `${stateFile(folder)}.lock`

interface Ended {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** When it ended (`Date.now()`). */
  at: number
}

/** Start the real bin with `TIERS_TEST_PAUSE=pause` (see `helpers/pause.mjs`). */
function start(cwd: string, args: readonly string[], pause: string): {pid: number; ended: Promise<Ended>; pauses: string} {
  const pauses = path.join(cwd, 'pauses.log')
  const env: NodeJS.ProcessEnv = {...process.env, TIERS_TEST_PAUSE: pause, TIERS_TEST_PAUSE_LOG: pauses}
  delete env.TIERS_MAX_BLOCKS
  const child = spawn(process.execPath, ['--import', preload, tiersBin, ...args], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const ended = new Promise<Ended>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({code, signal, stdout, stderr, at: Date.now()}))
  })
  if (child.pid === undefined) throw new Error('tiers did not start')
  return {pid: child.pid, ended, pauses}
}

/**
 * Resolves once the process has reached its `times`th pause and is stopped
 * (`T` in /proc), or fails after 20 s. Counted from its pause log, not from
 * seeing it run in between: resumed, it may reach its next pause before a
 * poll sees it running.
 */
async function stopped({pid, ended, pauses}: {pid: number; ended: Promise<Ended>; pauses: string}, times = 1): Promise<void> {
  let gone = false
  void ended.then(() => (gone = true))
  const until = Date.now() + 20_000
  for (;;) {
    const reached = (await fs.readFile(pauses, 'utf8').catch(() => '')).split('\n').filter(Boolean).length
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    if (reached >= times && stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return
    if (gone) throw new Error(`tiers ended before it reached its pause: ${JSON.stringify(await ended)}`)
    if (Date.now() > until) throw new Error('tiers did not reach its pause in 20 s')
    await sleep(10)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

/** Set the lock’s time a minute back: to the next `tiers`, its holder has been silent far past the stale time. */
async function makeStale(folder: string): Promise<void> {
  const past = new Date(Date.now() - 60_000)
  await fs.utimes(lockFolder(folder), past, past)
}

const feedbacks = async (folder: string) =>
  JSON.parse(await fs.readFile(stateFile(folder), 'utf8')).rejections.map((entry: {feedback: string}) => entry.feedback)

/** What `respond` prints for the `count`th rejection of S-01 (the options, then the count). */
const recorded = (feedback: string, count: number) =>
  expect.stringMatching(
    new RegExp(
      `^Recorded as feedback: "${feedback}"\\n[\\s\\S]*\\nYour feedback: "${feedback}"\\n[\\s\\S]*\\nRejection ${count} of 3 recorded\\. Record the choice: tiers route S-01 <1\\|2\\|3> \\[--detail <text>\\]\\n$`
    )
  )

/** Only the state file is left: no lock folder, no temporary file. */
async function onlyStateLeft(folder: string): Promise<void> {
  const left = await fs.readdir(path.dirname(stateFile(folder)))
  expect(left.filter((name) => name.startsWith('S-01'))).toEqual(['S-01.json'])
}

describe.runIf(process.platform === 'linux').concurrent('a lock holder paused past the stale time', () => {
  it('records its reply on top of the reply of the process that took its lock over, without a stack trace', async ({expect}) => {
    const folder = await project()
    const first = start(folder, ['respond', 'S-01', 'the grid shows 2 columns'], 'open:S-01.json:1')
    await stopped(first)
    const pausedAt = Date.now()
    await makeStale(folder)
    expect(await runTiers(folder, ['respond', 'S-01', 'the badge is orange'])).toEqual({
      code: 0,
      stdout: recorded('the badge is orange', 1),
      stderr: warningLine
    })
    // Past 5 s, `proper-lockfile`’s default refresh: the paused holder’s timer finds its lock gone as soon as it runs.
    await sleep(pausedAt + 6_000 - Date.now())
    process.kill(first.pid, 'SIGCONT')
    const run = await first.ended
    expect({code: run.code, signal: run.signal, stdout: run.stdout, stderr: run.stderr}).toEqual({
      code: 0,
      signal: null,
      stdout: recorded('the grid shows 2 columns', 2),
      stderr: warningLine
    })
    expect(await feedbacks(folder)).toEqual(['the badge is orange', 'the grid shows 2 columns'])
    await onlyStateLeft(folder)
  })

  it('reads the state again when it changed between its read and its write, and records its reply on the new state', async ({expect}) => {
    const folder = await project()
    // The 2nd version check: after the read and the change, before the write.
    const first = start(folder, ['respond', 'S-01', 'the grid shows 2 columns'], 'stat:S-01.json:2')
    await stopped(first)
    await makeStale(folder)
    expect((await runTiers(folder, ['respond', 'S-01', 'the badge is orange'])).code).toBe(0)
    process.kill(first.pid, 'SIGCONT')
    const run = await first.ended
    expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({code: 0, stdout: recorded('the grid shows 2 columns', 2), stderr: warningLine})
    expect(await feedbacks(folder)).toEqual(['the badge is orange', 'the grid shows 2 columns'])
    await onlyStateLeft(folder)
  })

  it('gives up after a second change, in one line that gives the reply back, ready to send again (exit 1)', async ({expect}) => {
    const folder = await project()
    const reply = "it's 2 columns, not 3"
    const first = start(folder, ['respond', 'S-01', reply], 'stat:S-01.json:2,4')
    await stopped(first)
    await makeStale(folder)
    expect((await runTiers(folder, ['respond', 'S-01', 'the badge is orange'])).code).toBe(0)
    process.kill(first.pid, 'SIGCONT')
    // The second try, paused at the same place.
    await stopped(first, 2)
    await makeStale(folder)
    expect((await runTiers(folder, ['respond', 'S-01', 'the spend is missing'])).code).toBe(0)
    process.kill(first.pid, 'SIGCONT')
    const run = await first.ended
    expect({code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({
      code: 1,
      stdout: '',
      stderr: `tiers: Unexpected change to slice S-01 by another \`tiers\` while this reply was recorded, expected none: nothing was recorded; send it again: tiers respond S-01 'it'\\''s 2 columns, not 3'\n`
    })
    expect(await feedbacks(folder)).toEqual(['the badge is orange', 'the spend is missing'])
    await onlyStateLeft(folder)
  })
})

describe.runIf(process.platform === 'linux').concurrent('a signal to a lock holder', () => {
  it.for(['SIGINT', 'SIGTERM'] as const)('%s ends it within a second and releases the lock', async (signal, {expect}) => {
    const folder = await project()
    const holder = start(folder, ['respond', 'S-01', 'the grid shows 2 columns'], 'open:S-01.json:1')
    await stopped(holder)
    await expect(fs.stat(lockFolder(folder))).resolves.toBeTruthy()
    // Delivered as it resumes, with the lock held and the state not read yet.
    process.kill(holder.pid, signal)
    const resumedAt = Date.now()
    process.kill(holder.pid, 'SIGCONT')
    const run = await holder.ended
    expect(run.at - resumedAt).toBeLessThan(1_000)
    expect({code: run.code, signal: run.signal}).toEqual({code: null, signal})
    expect(run.stderr).not.toMatch(/^\s+at /m)
    await expect(fs.stat(lockFolder(folder))).rejects.toMatchObject({code: 'ENOENT'})
    // The next command takes the lock at once.
    const next = await runTiers(folder, ['respond', 'S-01', 'the badge is orange'])
    expect(next.code).toBe(0)
    expect(next.stdout).toMatch(/\nRejection [12] of 3 recorded\./)
  })
})
