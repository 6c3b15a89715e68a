import {spawn} from 'node:child_process'
import type {ChildProcessByStdio} from 'node:child_process'
import type {Readable, Writable} from 'node:stream'

/** How long one git call may take, unless `TIERS_GIT_TIMEOUT_SECONDS` says otherwise. */
export const defaultGitTimeoutSeconds = 15

/** A git call that did not give its answer: an error exit, a signal, or the time limit. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    reason: string,
    /** Git’s exit code, when it exited by itself. */
    readonly exitCode: number | null = null,
    readonly stderr = ''
  ) {
    // The subcommand names the call; its hashes and pathspecs would only make the line long.
    super(
      `\`git ${args
        .filter((arg) => !arg.startsWith('-'))
        .slice(0, 1)
        .join(' ')}\` ${reason}`
    )
    this.name = 'GitError'
  }
}

/** The time limit of each git call in milliseconds: `TIERS_GIT_TIMEOUT_SECONDS` (a positive number), else the default. */
export function gitTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.TIERS_GIT_TIMEOUT_SECONDS)
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : defaultGitTimeoutSeconds * 1000
}

// Settings that let git skip work, ask a question, or run a program of the
// repository’s: each could hide an edit, hang, or answer for git.
const safeConfig = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'core.quotePath=false']

/**
 * Run git in `cwd` and give its standard output, or throw a `GitError`:
 * on a non-zero exit, a signal, output over `maxBytes`, or after
 * `timeoutMs`, when git and whatever it started (its own process group)
 * are killed. Git reading a FIFO (`.gitignore`, `.git/info/exclude`)
 * waits for a writer that never comes: the time limit ends it.
 */
export async function runGit(cwd: string, args: readonly string[], options: GitCallOptions = {}): Promise<string> {
  return (await runGitBytes(cwd, args, options)).toString('utf8')
}

/** How a git call is bounded, and what it reads on standard input (none: standard input is closed). */
export interface GitCallOptions {
  timeoutMs?: number
  maxBytes?: number
  input?: string
}

/** `runGit`, giving git’s standard output as the bytes it wrote: a diff of a file that is not UTF-8 is hashed as it is. */
export function runGitBytes(
  cwd: string,
  args: readonly string[],
  {timeoutMs = gitTimeoutMs(), maxBytes = 256 * 1024 * 1024, input}: GitCallOptions = {}
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C'}
    delete env.GIT_EXTERNAL_DIFF
    // Standard input is a pipe only for what git is to read: otherwise nothing (as `ignore` gives).
    const child = spawn('git', [...safeConfig, ...args], {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32'
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>
    // Git gone before it read everything closes the pipe: its exit says what went wrong.
    child.stdin?.on('error', () => {})
    child.stdin?.end(input)
    const chunks: Buffer[] = []
    let size = 0
    let stderr = ''
    let failure: string | null = null
    const kill = (why: string) => {
      failure ??= why
      try {
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    const timer = setTimeout(() => kill(`took longer than ${timeoutMs / 1000} s and was stopped`), timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) return kill(`gave more than ${maxBytes} bytes`)
      chunks.push(chunk)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 2000) stderr += chunk
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(new GitError(args, `could not run (${error.message})`))
    })
    // `exit`, not `close`: a process git started may hold the pipes open after git is gone.
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (child.pid !== undefined && process.platform !== 'win32') {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // The group is empty.
        }
      }
      let settled = false
      const settle = () => {
        if (settled) return
        settled = true
        child.stdout.destroy()
        child.stderr.destroy()
        if (failure) return reject(new GitError(args, failure))
        if (code !== 0) {
          const said = stderr.trim().split('\n')[0] ?? ''
          return reject(new GitError(args, `failed (${signal ? `killed by ${signal}` : `exit code ${code}`}${said ? `: ${said}` : ''})`, code, stderr))
        }
        resolve(Buffer.concat(chunks))
      }
      // What git wrote before it ended is still in the pipes: read it, but wait no longer than they stay open by themselves.
      const open = [child.stdout, child.stderr].filter((stream) => !stream.readableEnded)
      if (open.length === 0) return settle()
      const grace = setTimeout(settle, 1000)
      let left = open.length
      for (const stream of open) {
        stream.once('end', () => {
          if (--left > 0) return
          clearTimeout(grace)
          settle()
        })
      }
    })
  })
}

/** The objects `git cat-file --batch` gave, in order: each blob’s bytes, `null` for one missing or of another type. */
export function readCatFileBatch(output: Buffer, count: number): Array<Buffer | null> {
  const objects: Array<Buffer | null> = []
  let offset = 0
  while (objects.length < count) {
    const end = output.indexOf(0x0a, offset)
    if (end === -1) throw new GitError(['cat-file'], `gave ${objects.length} of ${count} objects`)
    const header = output.toString('utf8', offset, end)
    offset = end + 1
    if (/ (missing|ambiguous)$/.test(header)) {
      objects.push(null)
      continue
    }
    const match = /^[\da-f]+ ([a-z]+) (\d+)$/.exec(header)
    const size = Number(match?.[2])
    if (!match || offset + size > output.length) throw new GitError(['cat-file'], `gave an unexpected answer ${JSON.stringify(header.slice(0, 80))}`)
    objects.push(match[1] === 'blob' || match[1] === 'commit' ? output.subarray(offset, offset + size) : null)
    offset += size + 1
  }
  return objects
}
