import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {keptOutputBytes} from '@verification-tiers/protocol'

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
  timeoutMs: number
  keepBytes?: number
  env?: NodeJS.ProcessEnv
}

// After the timeout, the group gets SIGTERM, then SIGKILL this much later.
const killGraceMs = 1000

/**
 * Run a shell command in its own process group. On timeout the whole group
 * is killed, so a `sleep` in a pipeline or a server it started goes too.
 */
export function runCommand(command: string, options: RunOptions): Promise<CommandResult> {
  const keep = options.keepBytes ?? keptOutputBytes
  const started = process.hrtime.bigint()
  return new Promise((resolve) => {
    const stdout = tail(keep)
    const stderr = tail(keep)
    let timedOut = false
    let settled = false
    let child: ReturnType<typeof spawn>
    const finish = (exitCode: number | null, signal: string | null, error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearTimeout(killTimer)
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6
      const status = timedOut ? 'timeout' : exitCode === 0 && !error ? 'pass' : 'fail'
      const out = stdout.kept()
      const err = stderr.kept()
      resolve({status, exitCode, signal, durationMs, stdout: out.text, stderr: err.text, stdoutCut: out.cut, stderrCut: err.cut, error})
    }
    let killTimer: NodeJS.Timeout | undefined
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child, 'SIGTERM')
      killTimer = setTimeout(() => {
        killGroup(child, 'SIGKILL')
        // A process that left the group may hold the pipes open: stop waiting for them.
        setTimeout(() => finish(null, 'SIGKILL', null), 500).unref()
      }, killGraceMs)
    }, options.timeoutMs)
    try {
      child = spawn('/bin/sh', ['-c', command], {cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
    } catch (error) {
      finish(null, null, (error as Error).message)
      return
    }
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error) => {
      // Node blames the shell when the folder is what is missing.
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(options.cwd)
      finish(null, null, missing ? `no such folder: ${options.cwd}` : error.message)
    })
    child.on('close', (code, signal) => finish(code, signal, null))
  })
}

function killGroup(child: ReturnType<typeof spawn> | undefined, signal: NodeJS.Signals): void {
  if (!child?.pid) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/** Keeps the last `limit` bytes of a stream. */
function tail(limit: number) {
  let chunks: Buffer[] = []
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
