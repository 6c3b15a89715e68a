/**
 * `runCommand`: a shell command in its own process group, with its exit code,
 * the end of its output and, on timeout, the whole group killed (SIGTERM,
 * then SIGKILL for what ignores it).
 *
 * Run `npx tsc -b` first: the tests import the built package.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {keptOutputBytes} from '@verification-tiers/protocol'
import {runCommand} from '@verification-tiers/evidence'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {isRunning, readPid as readPidIn} from '../../../test/helpers/processes.js'

let folder: string
const leftovers: number[] = []

beforeAll(async () => {
  folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-run-')))
})

afterAll(async () => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  await fs.rm(folder, {recursive: true, force: true})
})

const readPid = (name: string): Promise<number> => readPidIn(folder, name)

describe.concurrent('runCommand', () => {
  it('passes a command that exits 0, with its output', async ({expect}) => {
    const result = await runCommand('echo hello; echo to stderr >&2', {cwd: folder, timeoutMs: 5000})
    expect(result).toEqual({
      status: 'pass',
      exitCode: 0,
      signal: null,
      durationMs: expect.any(Number),
      stdout: 'hello\n',
      stderr: 'to stderr\n',
      stdoutCut: 0,
      stderrCut: 0,
      error: null
    })
    expect(result.durationMs).toBeGreaterThan(0)
    expect(result.durationMs).toBeLessThan(5000)
  })

  it('fails a command that exits non-zero, with its exit code', async ({expect}) => {
    expect(await runCommand('echo out; echo err >&2; exit 3', {cwd: folder, timeoutMs: 5000})).toMatchObject({
      status: 'fail',
      exitCode: 3,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      error: null
    })
  })

  it('fails a command killed by a signal, with no exit code', async ({expect}) => {
    expect(await runCommand('kill -9 $$', {cwd: folder, timeoutMs: 5000})).toMatchObject({status: 'fail', exitCode: null, signal: 'SIGKILL', error: null})
  })

  it('runs in `cwd`, with `env` when given', async ({expect}) => {
    const result = await runCommand('pwd; echo "$TIERS_TEST_VALUE"', {
      cwd: folder,
      timeoutMs: 5000,
      env: {PATH: process.env.PATH, TIERS_TEST_VALUE: 'from env'}
    })
    expect(result).toMatchObject({status: 'pass', stdout: `${folder}\nfrom env\n`})
  })

  it('fails with an error naming the folder when `cwd` does not exist', async ({expect}) => {
    const missing = path.join(folder, 'no-such-folder')
    expect(await runCommand('echo never', {cwd: missing, timeoutMs: 5000})).toEqual({
      status: 'fail',
      exitCode: null,
      signal: null,
      durationMs: expect.any(Number),
      stdout: '',
      stderr: '',
      stdoutCut: 0,
      stderrCut: 0,
      error: `no such folder: ${missing}`
    })
  })

  it('on timeout kills the whole process group, a background grandchild too', async ({expect}) => {
    const result = await runCommand('sleep 30 & echo $! > grandchild.pid; echo started; wait', {cwd: folder, timeoutMs: 1000})
    expect(result).toMatchObject({status: 'timeout', exitCode: null, signal: 'SIGTERM', stdout: 'started\n', error: null})
    // SIGTERM ended the whole group (the signal says so); the 30 s sleep did not hold the run.
    expect(result.durationMs).toBeGreaterThanOrEqual(1000)
    expect(result.durationMs).toBeLessThan(10_000)
    expect(isRunning(await readPid('grandchild.pid'))).toBe(false)
  })

  it('on timeout kills every command of a pipeline', async ({expect}) => {
    const result = await runCommand("sh -c 'echo $$ > piped.pid; exec sleep 30' | cat", {cwd: folder, timeoutMs: 1000})
    expect(result).toMatchObject({status: 'timeout', signal: 'SIGTERM'})
    expect(isRunning(await readPid('piped.pid'))).toBe(false)
  })

  it('sends SIGKILL a second after SIGTERM to a group that ignores SIGTERM', async ({expect}) => {
    const result = await runCommand("trap '' TERM; echo $$ > stubborn.pid; echo waiting; sleep 30", {cwd: folder, timeoutMs: 1000})
    expect(result).toMatchObject({status: 'timeout', exitCode: null, signal: 'SIGKILL', stdout: 'waiting\n'})
    expect(result.durationMs).toBeGreaterThanOrEqual(2000)
    expect(result.durationMs).toBeLessThan(10_000)
    expect(isRunning(await readPid('stubborn.pid'))).toBe(false)
  })

  it('stops waiting for a process that left the group and holds the output open, and ends it', async ({expect}) => {
    // Three seconds for `setsid` to leave the group before the timeout, even on a busy two-core CI machine.
    const result = await runCommand('setsid sleep 30 & echo $! > escaped.pid; wait', {cwd: folder, timeoutMs: 3000})
    const escaped = await readPid('escaped.pid')
    leftovers.push(escaped)
    // SIGTERM at 3 s ends the shell; the run ends with it, not with the 30 s sleep that holds the pipes.
    expect(result).toMatchObject({status: 'timeout', exitCode: null, signal: 'SIGTERM'})
    expect(result.durationMs).toBeGreaterThanOrEqual(3000)
    expect(result.durationMs).toBeLessThan(10_000)
    // It left the group, but it carries the run's marker in its environment: the run ends it too.
    expect(isRunning(escaped)).toBe(false)
  })

  it('keeps the last 8192 bytes of each stream and counts the bytes cut', async ({expect}) => {
    expect(keptOutputBytes).toBe(8192)
    // 1000 lines of 100 bytes on stdout, 10 on stderr.
    const command = `awk 'BEGIN { for (i = 1; i <= 1000; i++) printf "line %094d\\n", i; for (i = 1; i <= 10; i++) printf "error %d\\n", i > "/dev/stderr" }'`
    const result = await runCommand(command, {cwd: folder, timeoutMs: 5000})
    const lines = Array.from({length: 1000}, (_, index) => `line ${String(index + 1).padStart(94, '0')}\n`).join('')
    expect(lines).toHaveLength(100_000)
    expect(result).toMatchObject({status: 'pass', stdoutCut: 100_000 - 8192, stderrCut: 0})
    expect(result.stdout).toBe(lines.slice(-8192))
    expect(result.stdout.endsWith(`line ${String(1000).padStart(94, '0')}\n`)).toBe(true)
    expect(result.stderr).toBe(Array.from({length: 10}, (_, index) => `error ${index + 1}\n`).join(''))
  })

  it('keeps `keepBytes` bytes when given', async ({expect}) => {
    expect(await runCommand('printf 0123456789; printf abcdefghij >&2', {cwd: folder, timeoutMs: 5000, keepBytes: 4})).toMatchObject({
      stdout: '6789',
      stdoutCut: 6,
      stderr: 'ghij',
      stderrCut: 6
    })
  })

  it('starts the kept end on a whole character: the bytes of a character cut in two count as cut', async ({expect}) => {
    // `é` is 2 bytes: keeping the last 5 of 20 would start inside one.
    const result = await runCommand("printf 'éééééééééé'", {cwd: folder, timeoutMs: 5000, keepBytes: 5})
    expect(result).toMatchObject({stdout: 'éé', stdoutCut: 16})
  })

  it('starts on a whole character when the cut falls between two chunks of output', async ({expect}) => {
    // `é` (\303\251) split over two writes; the first chunk is dropped whole.
    const result = await runCommand("printf 'a\\303'; sleep 0.2; printf '\\251bcd'", {cwd: folder, timeoutMs: 5000, keepBytes: 4})
    expect(result).toMatchObject({status: 'pass', stdout: 'bcd', stdoutCut: 3})
  })
})
