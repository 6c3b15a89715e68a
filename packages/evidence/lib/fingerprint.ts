import {createHash} from 'node:crypto'
import type {Hash} from 'node:crypto'
import {constants} from 'node:fs'
import {lstat, open, readlink} from 'node:fs/promises'
import path from 'node:path'
import {GitError, runGit} from './git.js'

/** What a verification run saw of the sources: git’s HEAD and a hash of the uncommitted changes. */
export interface SourceFingerprint {
  /** Commit checked out, or `null` outside git (or before the first commit). */
  gitHead: string | null
  /**
   * Hash of what is not in HEAD: tracked changes, untracked files’ content,
   * files git is told to skip, submodules, and the test command; outside git,
   * the test command and the content of every file it names.
   */
  worktree: string | null
  /** Why these sources cannot be fingerprinted (a git call failed or timed out), so no run can be fresh; `null` when they can. */
  unproven: string | null
}

export interface FingerprintOptions {
  /** The project’s test command: part of the fingerprint, and outside git the files it names are too. */
  command?: string | null
  /** Time limit of each git call. */
  timeoutMs?: number
}

// Submodules inside submodules are followed this deep, no deeper.
const maxSubmoduleDepth = 4

/**
 * Fingerprint the sources under `root`, leaving out `exclude` (the folder of
 * tiers’ own state, which a run writes). Never throws: what cannot be read
 * (a git error, a git call over its time limit, a file that cannot be
 * opened) gives a fingerprint with `unproven` set, which no run matches.
 */
export async function sourceFingerprint(root: string, exclude: readonly string[], options: FingerprintOptions = {}): Promise<SourceFingerprint> {
  try {
    const inGit = await gitState(root, exclude, options, 0)
    if (inGit) return {...inGit, unproven: null}
    return {gitHead: null, worktree: await outsideGit(root, options.command ?? null), unproven: null}
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {gitHead: null, worktree: null, unproven: `the sources cannot be fingerprinted: ${reason.split('\n')[0]}`}
  }
}

/** HEAD and the worktree’s hash, or `null` when `root` is in no git work tree. */
async function gitState(root: string, exclude: readonly string[], options: FingerprintOptions, depth: number): Promise<{gitHead: string | null; worktree: string} | null> {
  const git = (args: string[]) => runGit(root, args, {timeoutMs: options.timeoutMs})
  try {
    if ((await git(['rev-parse', '--is-inside-work-tree'])).trim() !== 'true') return null
  } catch (error) {
    if (error instanceof GitError && /not a git repository/.test(error.message)) return null
    throw error
  }
  let head: string | null
  try {
    head = (await git(['rev-parse', '--verify', '--quiet', 'HEAD'])).trim() || null
  } catch (error) {
    // Exit 1 and nothing said: no commit yet.
    if (!(error instanceof GitError && error.exitCode === 1 && error.stderr.trim() === '')) throw error
    head = null
  }
  const pathspec = ['--', '.', ...exclude.map((folder) => `:(exclude)${folder}`)]
  const hash = createHash('sha256')
  hash.update(`command\0${options.command ?? ''}\0`)
  // Content of tracked files against HEAD (the empty tree before the first
  // commit), staged or not: staging alone changes no source, an edit does.
  // No program of the repository’s (external diff, textconv) speaks for a file.
  const base = head ?? (await git(['hash-object', '-t', 'tree', '/dev/null'])).trim()
  hash.update(await git(['diff', base, '--binary', '--no-ext-diff', '--no-textconv', '--ignore-submodules=none', ...pathspec]))
  // Files git is told not to look at (`--assume-unchanged`, `--skip-worktree`) are hashed by content all the same; submodules by their own fingerprint.
  const index = await git(['ls-files', '-v', '-s', '-z', ...pathspec])
  for (const entry of index.split('\0').filter(Boolean)) {
    const match = /^(\S) (\d+) [\da-f]+ \d+\t(.*)$/s.exec(entry)
    if (!match) throw new Error(`unexpected \`git ls-files\` entry ${JSON.stringify(entry.slice(0, 80))}`)
    const [, tag, mode, file] = match as unknown as [string, string, string, string]
    if (mode === '160000') {
      hash.update(`submodule\0${file}\0`)
      if (depth >= maxSubmoduleDepth) throw new Error(`submodule ${file} is nested more than ${maxSubmoduleDepth} deep`)
      const inner = await gitState(path.join(root, file), [], options, depth + 1).catch(async (error: unknown) => {
        // A submodule that is not checked out has nothing to change.
        if ((await lstat(path.join(root, file, '.git')).catch(() => null)) === null) return null
        throw error
      })
      hash.update(inner ? `${inner.gitHead ?? ''}\0${inner.worktree}\0` : 'absent\0')
    } else if (tag === 'S' || /^[a-z]$/.test(tag)) {
      hash.update(`skipped\0${file}\0`)
      await hashFile(hash, path.join(root, file))
    }
  }
  // Untracked files by content: size and time would miss an edit that keeps both.
  const untracked = await git(['ls-files', '--others', '--exclude-standard', '-z', ...pathspec])
  for (const file of untracked.split('\0').filter(Boolean).sort()) {
    hash.update(`untracked\0${file}\0`)
    await hashFile(hash, path.join(root, file))
  }
  return {gitHead: head, worktree: hash.digest('hex')}
}

/**
 * Outside git: the test command and the content of every file it names (a
 * word of the command that is a file under `root`), so a changed command or
 * script is a change.
 */
async function outsideGit(root: string, command: string | null): Promise<string> {
  const hash = createHash('sha256')
  hash.update(`outside git\0command\0${command ?? ''}\0`)
  const words = new Set((command ?? '').split(/[\s;|&<>()'"`=,]+/).filter((word) => word !== '' && !word.startsWith('-')))
  for (const word of [...words].sort()) {
    const file = path.resolve(root, word)
    const info = await lstat(file).catch(() => null)
    if (!info || info.isDirectory()) continue
    hash.update(`named\0${word}\0`)
    await hashFile(hash, file)
  }
  return hash.digest('hex')
}

/**
 * A file’s content into `hash`: a regular file’s bytes, a link’s target, or
 * only the kind of anything else (a FIFO is never opened). A file gone
 * meanwhile is hashed as gone; one that cannot be read throws.
 */
async function hashFile(hash: Hash, file: string): Promise<void> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
    throw error
  })
  if (!info) return void hash.update('gone\0')
  if (info.isSymbolicLink()) return void hash.update(`link\0${await readlink(file)}\0`)
  if (!info.isFile()) return void hash.update(`kind\0${info.mode & constants.S_IFMT}\0`)
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0))
  try {
    if (!(await handle.stat()).isFile()) return void hash.update('changed kind\0')
    const content = createHash('sha256')
    for await (const chunk of handle.createReadStream({autoClose: false})) content.update(chunk as Buffer)
    hash.update(`file\0${content.digest('hex')}\0`)
  } finally {
    await handle.close()
  }
}
