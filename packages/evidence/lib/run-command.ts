import {spawn} from 'node:child_process'
import type {ChildProcess} from 'node:child_process'
import {existsSync} from 'node:fs'
import type {Readable} from 'node:stream'
import {keptOutputBytes} from '@verification-tiers/protocol'
import {randomUUID} from 'node:crypto'
import {runMarkerName, startWatchdog, stopGroup, stopMarked, trackGroup, trackMarker} from './process-groups.js'

/** How one command ended. */
export interface CommandResult {
  status: 'pass' | 'fail' | 'timeout'
  exitCode: number | null
  signal: string | null
  durationMs: number
  /** The end of each stream, at most `keepBytes` bytes. */
  stdout: string
  stderr: string
  /** Bytes cut from the start of each stream. */
  stdoutCut: number
  stderrCut: number
  /** Why the command could not start, if it could not. */
  error: string | null
}

export interface RunOptions {
  cwd: string
  /** Above 0 and at most 2^31 - 1 (about 24.8 days), what a timer can count. */
  timeoutMs: number
  keepBytes?: number
  env?: NodeJS.ProcessEnv
  /** Aborting it ends the command’s group at once (SIGKILL shortly after SIGTERM); a command not started yet does not start. */
  signal?: AbortSignal
}

// After the timeout, the group gets SIGTERM, then SIGKILL this much later.
const killGraceMs = 1000
// On an interrupt the user waits: SIGKILL comes sooner.
const interruptGraceMs = 200
// After the shell exits, how long its output may take to arrive. A process that
// left the group (`setsid`) may hold the pipes open for good: it is not waited for.
const drainMs = 200
// Node fires a longer timer at once (TimeoutOverflowWarning).
const maxTimeoutMs = 2 ** 31 - 1

/**
 * Run a shell command in its own process group. The run ends when the shell
 * exits; whatever it left running in its group then (`sleep 300 &`) is
 * ended, and so is the whole group on timeout, when `signal` aborts, and when
 * this process ends (see `process-groups.ts`), so a `sleep` in a pipeline or
 * a server it started goes too.
 */
export function runCommand(command: string, options: RunOptions): Promise<CommandResult> {
  const {timeoutMs} = options
  const keep = options.keepBytes ?? keptOutputBytes
  const started = process.hrtime.bigint()
  const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6
  return new Promise((resolve) => {
    const stdout = tail(keep)
    const stderr = tail(keep)
    let timedOut = false
    let settled = false
    let endedMs: number | null = null
    let stopping: Promise<boolean> | null = null
    let timer: NodeJS.Timeout | undefined
    const finish = (exitCode: number | null, signal: string | null, error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', abort)
      const durationMs = endedMs ?? elapsedMs()
      const status = timedOut ? 'timeout' : exitCode === 0 && !error ? 'pass' : 'fail'
      const out = stdout.kept()
      const err = stderr.kept()
      resolve({status, exitCode, signal, durationMs, stdout: out.text, stderr: err.text, stdoutCut: out.cut, stderrCut: err.cut, error})
    }
    let pid: number | undefined
    // One ending per run: a timeout, an abort and the shell’s exit share it.
    // Every process the command starts inherits the marker, so one that leaves the group (`setsid`) is ended too.
    const marker = randomUUID()
    const stop = (graceMs: number) =>
      (stopping ??= (async () => {
        const gone = pid === undefined ? true : await stopGroup(pid, graceMs)
        await stopMarked(marker, graceMs)
        return gone
      })())
    const abort = () => void stop(interruptGraceMs)
    if (options.signal?.aborted) {
      finish(null, null, 'interrupted before it started')
      return
    }
    // A command with no usable limit does not start: it could run forever, or time out at once.
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= maxTimeoutMs)) {
      finish(null, null, `Unexpected timeout of ${timeoutMs} ms, expected a number above 0 and at most ${maxTimeoutMs}`)
      return
    }
    // Ready before the command starts: between its start and its group being kept, no time for `tiers` to be killed.
    startWatchdog()
    let child: ChildProcess
    try {
      trackMarker(marker)
      child = spawn('/bin/sh', ['-c', command], {
        cwd: options.cwd,
        env: {...(options.env ?? process.env), [runMarkerName]: marker},
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe']
      })
    } catch (error) {
      finish(null, null, (error as Error).message)
      return
    }
    pid = child.pid
    if (pid !== undefined) trackGroup(pid)
    timer = setTimeout(() => {
      timedOut = true
      void stop(killGraceMs)
    }, timeoutMs)
    options.signal?.addEventListener('abort', abort, {once: true})
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error) => {
      // Node blames the shell when the folder is what is missing.
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(options.cwd)
      void stop(interruptGraceMs)
      finish(null, null, missing ? `no such folder: ${options.cwd}` : error.message)
    })
    child.on('exit', (code, signal) => {
      endedMs = elapsedMs()
      clearTimeout(timer)
      void (async () => {
        // What the shell left running in its group goes with it.
        await stop(killGraceMs)
        await closed(child, drainMs)
        child.stdout?.destroy()
        child.stderr?.destroy()
        finish(code, signal, null)
      })()
    })
  })
}

/** Resolves when the child’s output streams have closed, or after `ms`. */
function closed(child: ChildProcess, ms: number): Promise<void> {
  const open = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null && !stream.closed)
  return new Promise((resolve) => {
    let left = open.length
    if (left === 0) return resolve()
    const timer = setTimeout(resolve, ms)
    for (const stream of open) {
      stream.once('close', () => {
        if (--left > 0) return
        clearTimeout(timer)
        resolve()
      })
    }
  })
}

/** Keeps the last `limit` bytes of a stream. */
function tail(limit: number) {
  const chunks: Buffer[] = []
  let size = 0
  let total = 0
  return {
    push(chunk: Buffer) {
      total += chunk.length
      chunks.push(chunk)
      size += chunk.length
      while (size - (chunks[0]?.length ?? 0) >= limit && chunks.length > 1) size -= chunks.shift()!.length
    },
    /** The kept end, starting on a whole UTF-8 character, and the bytes cut before it. */
    kept(): {text: string; cut: number} {
      const all = Buffer.concat(chunks)
      const from = Math.max(0, all.length - limit)
      let start = from
      // Continuation bytes (10xxxxxx, at most 3) of a character cut in two go with the cut.
      const cutBefore = total - all.length + from
      while (cutBefore > 0 && start < Math.min(all.length, from + 3) && ((all[start] ?? 0) & 0xc0) === 0x80) start++
      return {text: all.subarray(start).toString('utf8'), cut: cutBefore + start - from}
    }
  }
}
