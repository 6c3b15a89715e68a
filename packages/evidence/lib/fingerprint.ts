import {execFile} from 'node:child_process'
import {createHash} from 'node:crypto'
import {stat} from 'node:fs/promises'
import path from 'node:path'

/** What a verification run saw of the sources: git’s HEAD and a hash of the uncommitted changes. */
export interface SourceFingerprint {
  /** Commit checked out, or `null` outside git (or before the first commit). */
  gitHead: string | null
  /** Hash of uncommitted changes (tracked diffs, untracked files’ sizes and times), or `null` outside git. */
  worktree: string | null
}

/**
 * Fingerprint the sources under `root`, leaving out `exclude` (the folder of
 * tiers’ own state, which a run writes).
 */
export async function sourceFingerprint(root: string, exclude: readonly string[]): Promise<SourceFingerprint> {
  const inside = await git(root, ['rev-parse', '--is-inside-work-tree'])
  if (inside?.trim() !== 'true') return {gitHead: null, worktree: null}
  const head = (await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD']))?.trim() || null
  const pathspec = ['--', '.', ...exclude.map((folder) => `:(exclude)${folder}`)]
  const hash = createHash('sha256')
  // Content of tracked files against HEAD (the empty tree before the first
  // commit), staged or not: staging alone changes no source, an edit does.
  const base = head ?? (await git(root, ['hash-object', '-t', 'tree', '/dev/null']))?.trim()
  if (base) hash.update((await git(root, ['diff', base, '--binary', ...pathspec])) ?? '')
  // Untracked files show only by name in status: their size and time tell an edit.
  const untracked = (await git(root, ['ls-files', '--others', '--exclude-standard', '-z', ...pathspec])) ?? ''
  for (const file of untracked.split('\0').filter(Boolean).sort()) {
    const info = await stat(path.join(root, file)).catch(() => null)
    hash.update(`${file}\0${info?.size ?? -1}\0${info?.mtimeMs ?? -1}\0`)
  }
  return {gitHead: head, worktree: hash.digest('hex')}
}

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, {cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8'}, (error, stdout) => resolve(error ? null : stdout))
  })
}
