import {createHash} from 'node:crypto'
import {closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync} from 'node:fs'
import type {Stats} from 'node:fs'
import {lstat, readdir} from 'node:fs/promises'
import path from 'node:path'
import {defaultFreshnessExclude, excludeMatcher, excludePatternProblem, freshnessExcludeRule, parseExcludePattern} from '@verification-tiers/runtime'
import type {ExcludePattern} from '@verification-tiers/runtime'
import {GitError, runGit, runGitBytes} from './git.js'

/** What a verification run saw of the sources: git’s HEAD and a hash of everything else. */
export interface SourceFingerprint {
  /** Commit checked out, or `null` outside git (or before the first commit). */
  gitHead: string | null
  /**
   * Hash of what is not in HEAD: tracked changes, the content of every file
   * git does not track (ignored ones too), files git is told to skip,
   * submodules and repositories inside, and the test command; outside git,
   * the test command and the content of every file of the project tree.
   * What is left out is not in it.
   */
  worktree: string | null
  /** Why these sources cannot be fingerprinted (a git call failed or timed out), so no run can be fresh; `null` when they can. */
  unproven: string | null
  /**
   * What exists and was left out, by the defaults or `freshnessExclude`,
   * each the highest folder (ending in `/`) or file left out, from the root;
   * tiers’ own state (`exclude`) and `.git` are always left out and not
   * listed.
   */
  leftOut: string[]
  /** What `worktree` hashes, by path from the root: what a run compares before and after its checks to name what changed. */
  files: ReadonlyMap<string, string>
}

export interface FingerprintOptions {
  /** The project’s test command: part of the fingerprint. */
  command?: string | null
  /** Time limit of each git call. */
  timeoutMs?: number
  /** What to leave out of every file, tracked or not (a project’s `freshness.exclude`): paths from the root or names at any depth, with `*`, `**` and `?`. */
  freshnessExclude?: readonly string[]
  /** What to leave out of the files git does not track (outside git, of every file): `defaultFreshnessExclude` unless given. */
  defaultExclude?: readonly string[]
}

/** At most this many files are hashed by content besides those git tracks (outside git, of the whole tree): more proves nothing. */
export const maxHashedFiles = 100_000

/** At most this many bytes are hashed by content besides the files git tracks: more proves nothing. */
export const maxHashedBytes = 1024 ** 3

// Submodules and repositories inside submodules are followed this deep, no deeper.
const maxRepositoryDepth = 4

/** What is left out where: tiers’ own state (every file, not listed), a project’s exclusions (every file), the defaults (files git does not track). */
interface Scope {
  state: readonly string[]
  always: readonly ExcludePattern[]
  untracked: readonly ExcludePattern[]
}

/** How much has been hashed by content so far. */
interface Budget {
  files: number
  bytes: number
}

interface TreeState {
  gitHead: string | null
  files: Map<string, string>
  leftOut: string[]
}

/**
 * Fingerprint the sources under `root`, leaving out `exclude` (paths from
 * `root`: the folder of tiers’ own state, which a run writes), what
 * `options.freshnessExclude` names, and, of the files git does not track,
 * `options.defaultExclude`. Never throws: what cannot be read (a git error,
 * a broken repository, a git call over its time limit, a file that cannot be
 * opened, more than `maxHashedFiles` files or `maxHashedBytes` bytes to
 * hash) gives a fingerprint with `unproven` set, which no run matches.
 */
export async function sourceFingerprint(root: string, exclude: readonly string[], options: FingerprintOptions = {}): Promise<SourceFingerprint> {
  try {
    const scope: Scope = {
      state: exclude.map((folder) => folder.split(path.sep).join('/')),
      always: patternsOf(options.freshnessExclude ?? []),
      untracked: patternsOf(options.defaultExclude ?? defaultFreshnessExclude)
    }
    const budget: Budget = {files: 0, bytes: 0}
    const inGit = await gitState(root, scope, options, budget, 0)
    const state = inGit ?? (await outsideGit(root, scope, budget))
    const hash = createHash('sha256')
    hash.update(`${inGit ? 'git' : 'outside git'}\0command\0${options.command ?? ''}\0${treeDigest(state.files)}`)
    return {gitHead: state.gitHead, worktree: hash.digest('hex'), unproven: null, leftOut: state.leftOut, files: state.files}
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {gitHead: null, worktree: null, unproven: `the sources cannot be fingerprinted: ${reason.split('\n')[0]}`, leftOut: [], files: new Map()}
  }
}

/** Exclusions as read, or an error naming the first that is none. */
function patternsOf(texts: readonly string[]): ExcludePattern[] {
  return texts.map((text) => {
    const problem = excludePatternProblem(text)
    if (problem) throw new Error(`Unexpected \`${JSON.stringify(text)}\` (${problem}) in \`freshness.exclude\`, expected ${freshnessExcludeRule}`)
    return parseExcludePattern(text)
  })
}

/** Git pathspecs for the exclusions: each matches its path or name, and everything in it. */
function pathspecs(patterns: readonly ExcludePattern[], magic: 'glob' | 'exclude,glob'): string[] {
  return patterns.flatMap(({body, anchored}) => {
    const glob = anchored ? body : `**/${body}`
    return [`:(${magic})${glob}`, `:(${magic})${glob}/**`]
  })
}

/** Git pathspecs leaving out tiers’ own state folders. */
function stateSpecs(state: readonly string[]): string[] {
  return state.map((folder) => `:(exclude,literal)${folder}`)
}

/** One hash of what a tree holds by path, in the order of the paths. */
function treeDigest(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256')
  for (const file of [...files.keys()].sort()) hash.update(`${file}\0${files.get(file)}\0`)
  return hash.digest('hex')
}

/** What a fingerprint holds for `file` is a file git does not track (any file, outside git) or a repository inside: what checks can create. */
function isUntracked(entry: string | undefined): boolean {
  return entry === undefined || entry.startsWith('untracked\0') || entry.startsWith('repository\0')
}

/** Whether a `.git` (folder or file) is in `folder` or any folder above it: git then fails only on a broken repository. */
export async function gitFolderAbove(folder: string): Promise<string | null> {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.git')
    if (await lstat(candidate).catch(() => null)) return candidate
    if (path.dirname(dir) === dir) return null
  }
}

/** HEAD, what the tree holds and what was left out, or `null` when `root` is in no git work tree (and no `.git` above says it should be). */
async function gitState(root: string, scope: Scope, options: FingerprintOptions, budget: Budget, depth: number): Promise<TreeState | null> {
  const bounds = {timeoutMs: options.timeoutMs}
  const git = (args: string[]) => runGit(root, args, bounds)
  try {
    if ((await git(['rev-parse', '--is-inside-work-tree'])).trim() !== 'true') return null
  } catch (error) {
    // No repository at all is outside git; a `.git` git cannot read (a worktree whose folder was pruned) is a git error like any other.
    if (error instanceof GitError && /not a git repository/.test(error.message) && (await gitFolderAbove(root)) === null) return null
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
  const tracked = ['--', '.', ...stateSpecs(scope.state), ...pathspecs(scope.always, 'exclude,glob')]
  const untracked = [...tracked, ...pathspecs(scope.untracked, 'exclude,glob')]
  // Repositories inside get the defaults and the names at any depth: a path from the root means nothing there.
  const inner: Scope = {state: [], always: scope.always.filter((pattern) => !pattern.anchored), untracked: scope.untracked}
  const files = new Map<string, string>()
  // Content of tracked files against HEAD (the empty tree before the first
  // commit), staged or not: staging alone changes no source, an edit does.
  // No program of the repository’s (external diff, textconv) speaks for a
  // file. One entry per file, by its path from the root.
  const base = head ?? (await git(['hash-object', '-t', 'tree', '/dev/null'])).trim()
  const diff = await runGitBytes(
    root,
    [
      'diff',
      base,
      '--binary',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--ignore-submodules=none',
      '--no-renames',
      '--relative',
      '--no-prefix',
      ...tracked
    ],
    bounds
  )
  for (const {file, text} of diffSections(diff)) files.set(file, `changed\0${createHash('sha256').update(text).digest('hex')}`)
  // Files git is told not to look at (`--assume-unchanged`, `--skip-worktree`) are hashed by content all the same; submodules by their own fingerprint.
  const index = await git(['ls-files', '-v', '-s', '-z', ...tracked])
  for (const entry of index.split('\0').filter(Boolean)) {
    const match = /^(\S) (\d+) [\da-f]+ \d+\t(.*)$/s.exec(entry)
    if (!match) throw new Error(`unexpected \`git ls-files\` entry ${JSON.stringify(entry.slice(0, 80))}`)
    const [, tag, mode, file] = match as unknown as [string, string, string, string]
    if (mode === '160000') {
      if (depth >= maxRepositoryDepth) throw new Error(`submodule ${file} is nested more than ${maxRepositoryDepth} deep`)
      const state = await gitState(path.join(root, file), inner, options, budget, depth + 1).catch(async (error: unknown) => {
        // A submodule that is not checked out has nothing to change.
        if ((await lstat(path.join(root, file, '.git')).catch(() => null)) === null) return null
        throw error
      })
      files.set(file, state ? `submodule\0${state.gitHead ?? ''}\0${treeDigest(state.files)}` : 'submodule\0absent')
    } else if (tag === 'S' || /^[a-z]$/.test(tag)) {
      files.set(file, `skipped\0${fileDigest(path.join(root, file), budget)}`)
    }
  }
  // Every file git does not track, ignored or not, by content (size and
  // time would miss an edit that keeps both), but what is left out; a
  // repository inside by its own fingerprint. Git reads no ignore file for
  // this, so a `.gitignore` can neither hide a file nor hang the call.
  const others = (await git(['ls-files', '--others', '-z', ...untracked])).split('\0').filter(Boolean)
  const plain: string[] = []
  for (const entry of others) {
    if (!entry.endsWith('/')) {
      plain.push(entry)
      continue
    }
    if (depth >= maxRepositoryDepth) throw new Error(`repository ${entry} is nested more than ${maxRepositoryDepth} deep`)
    const state = await gitState(path.join(root, entry), inner, options, budget, depth + 1)
    files.set(entry.slice(0, -1), state ? `repository\0${state.gitHead ?? ''}\0${treeDigest(state.files)}` : 'repository\0none')
  }
  const digests = await hashAll(root, plain, budget)
  for (const [index, file] of plain.entries()) files.set(file, `untracked\0${digests[index]}`)
  const leftOut = depth === 0 ? await gitLeftOut(root, scope, bounds) : []
  return {gitHead: head, files, leftOut}
}

/** What exists and the exclusions left out: files git does not track that any exclusion matches, and tracked ones a project’s exclusion matches; each as the highest folder or file left out. */
async function gitLeftOut(root: string, scope: Scope, bounds: {timeoutMs?: number | undefined}): Promise<string[]> {
  const shown = [...scope.always, ...scope.untracked]
  if (shown.length === 0) return []
  // `--directory`: a folder git tracks nothing in is one entry, and git does not look inside.
  const untracked = await runGit(root, ['ls-files', '--others', '--directory', '-z', '--', ...pathspecs(shown, 'glob'), ...stateSpecs(scope.state)], bounds)
  const tracked =
    scope.always.length > 0 ? await runGit(root, ['ls-files', '-z', '--', ...pathspecs(scope.always, 'glob'), ...stateSpecs(scope.state)], bounds) : ''
  return [...new Set([...highest(untracked, excludeMatcher(shown)), ...highest(tracked, excludeMatcher(scope.always))])].sort()
}

/** Each path of a `-z` listing as the highest folder (ending in `/`) or file above or at it that `matches`. */
function highest(listing: string, matches: (file: string) => boolean): string[] {
  return listing
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const folder = entry.endsWith('/')
      const segments = entry.replace(/\/$/, '').split('/')
      for (let length = 1; length <= segments.length; length++) {
        const prefix = segments.slice(0, length).join('/')
        if (matches(prefix)) return length < segments.length || folder ? `${prefix}/` : prefix
      }
      return entry
    })
}

/**
 * Outside git: every file of the tree under `root` by content, but what is
 * left out (and any `.git`); a link by its target, never followed.
 */
async function outsideGit(root: string, scope: Scope, budget: Budget): Promise<TreeState> {
  const leftOut: string[] = []
  const found: string[] = []
  const excluded = excludeMatcher([...scope.always, ...scope.untracked])
  const state = new Set(scope.state)
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(path.join(root, folder), {withFileTypes: true})
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      const file = folder === '' ? entry.name : `${folder}/${entry.name}`
      if (entry.name === '.git' || state.has(file)) continue
      if (excluded(file)) {
        leftOut.push(entry.isDirectory() ? `${file}/` : file)
      } else if (entry.isDirectory()) {
        await walk(file)
      } else {
        found.push(file)
        if (found.length > maxHashedFiles) throw tooMuch(`${maxHashedFiles} files`)
      }
    }
  }
  await walk('')
  const digests = await hashAll(root, found, budget)
  const files = new Map<string, string>()
  for (const [index, file] of found.entries()) files.set(file, `untracked\0${digests[index]}`)
  return {gitHead: null, files, leftOut}
}

function tooMuch(what: string): Error {
  return new Error(`more than ${what} to hash besides the files git tracks: leave folders out with \`freshness.exclude\``)
}

/**
 * The content digests of `files` (paths from `root`), counted against
 * `budget`. Read synchronously, which costs a tenth of the time for small
 * files, with a turn of the event loop every so often so a signal is heard.
 */
async function hashAll(root: string, files: readonly string[], budget: Budget): Promise<string[]> {
  budget.files += files.length
  if (budget.files > maxHashedFiles) throw tooMuch(`${maxHashedFiles} files`)
  const digests: string[] = []
  for (const [index, file] of files.entries()) {
    if (index % filesBetweenTurns === filesBetweenTurns - 1) await new Promise((resolve) => setImmediate(resolve))
    digests.push(fileDigest(path.join(root, file), budget))
  }
  return digests
}

// Files hashed between two turns of the event loop.
const filesBetweenTurns = 256

let readBuffer: Buffer | undefined

/**
 * A file’s content as a digest: a regular file’s bytes and whether it is
 * executable, a link’s target, or only the kind of anything else (a FIFO is
 * never opened). A file gone meanwhile is `gone`; one that cannot be read
 * throws.
 */
function fileDigest(file: string, budget: Budget): string {
  let info: Stats
  try {
    info = lstatSync(file)
  } catch (error) {
    const {code} = error as NodeJS.ErrnoException
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone'
    throw error
  }
  if (info.isSymbolicLink()) return `link\0${readlinkSync(file)}`
  if (!info.isFile()) return `kind\0${info.mode & constants.S_IFMT}`
  budget.bytes += info.size
  if (budget.bytes > maxHashedBytes) throw tooMuch(`${maxHashedBytes / 1024 ** 3} GiB`)
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0))
  try {
    const opened = fstatSync(fd)
    if (!opened.isFile()) return 'changed kind'
    const content = createHash('sha256')
    readBuffer ??= Buffer.allocUnsafe(1024 * 1024)
    for (let read = readSync(fd, readBuffer, 0, readBuffer.length, null); read > 0; read = readSync(fd, readBuffer, 0, readBuffer.length, null)) {
      content.update(readBuffer.subarray(0, read))
    }
    return `file\0${opened.mode & 0o111 ? 'x' : '-'}\0${content.digest('hex')}`
  } finally {
    closeSync(fd)
  }
}

const diffHeader = Buffer.from('diff --git ')

/** `git diff` output cut into one section per file, each with the file’s path (from the `--no-prefix` header). */
function diffSections(diff: Buffer): Array<{file: string; text: Buffer}> {
  if (diff.length === 0) return []
  if (!diff.subarray(0, diffHeader.length).equals(diffHeader)) throw new Error('unexpected `git diff` output')
  const starts = [0]
  const between = Buffer.from(`\n${diffHeader.toString()}`)
  for (let at = diff.indexOf(between); at !== -1; at = diff.indexOf(between, at + 1)) starts.push(at + 1)
  return starts.map((start, index) => {
    const text = diff.subarray(start, starts[index + 1] ?? diff.length)
    const end = text.indexOf(10)
    return {file: headerPath(text.subarray(diffHeader.length, end === -1 ? text.length : end).toString('utf8')), text}
  })
}

/** The path of a `diff --git <path> <path>` header (the same path twice, without renames), unquoted; the header itself when it is not that. */
function headerPath(header: string): string {
  if (header.startsWith('"')) return unquote(header) ?? header
  const half = (header.length - 1) / 2
  return Number.isInteger(half) && header[half] === ' ' && header.slice(0, half) === header.slice(half + 1) ? header.slice(0, half) : header
}

const escapes: Record<string, number> = {a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92}

/** The first C-quoted string of `text` as git writes a path (`"a\tb"`, octal bytes), or `null`. */
function unquote(text: string): string | null {
  const bytes: number[] = []
  for (let at = 1; at < text.length; at++) {
    const char = text[at] as string
    if (char === '"') return Buffer.from(bytes).toString('utf8')
    if (char !== '\\') {
      for (const byte of Buffer.from(char)) bytes.push(byte)
      continue
    }
    const next = text[++at] ?? ''
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(text.slice(at, at + 3), 8))
      at += 2
    } else if (next in escapes) {
      bytes.push(escapes[next] as number)
    } else {
      return null
    }
  }
  return null
}

/** What happened to the sources between the fingerprints before and after a run’s checks. */
export interface SourceChanges {
  /** What changed that the checks did not create, as `<path> edited` or `<path> removed`, and `git HEAD moved`. */
  changed: string[]
  /** Files git does not track (any file, outside git) that were not there before: written by the checks. */
  created: string[]
  /** Files in `known` (written by the checks of an earlier run) that changed: written again. */
  rewritten: string[]
}

/**
 * Compare the fingerprints before and after a run’s checks. A file git does
 * not track that appears is the checks’ own output (`created`), and so is a
 * change to one of `known`, the files earlier runs’ checks created
 * (`rewritten`); any other change (an edit of a file that was there before,
 * a file removed, HEAD moved) is one the checks did not see.
 */
export function compareFingerprints(before: SourceFingerprint, after: SourceFingerprint, known: ReadonlySet<string> = new Set()): SourceChanges {
  const changes: SourceChanges = {changed: before.gitHead === after.gitHead ? [] : ['git HEAD moved'], created: [], rewritten: []}
  for (const file of [...new Set([...before.files.keys(), ...after.files.keys()])].sort()) {
    const was = before.files.get(file)
    const is = after.files.get(file)
    if (was === is) continue
    if (known.has(file) && isUntracked(was) && isUntracked(is)) {
      if (is !== undefined) changes.rewritten.push(file)
    } else if (was === undefined && isUntracked(is)) {
      changes.created.push(file)
    } else {
      changes.changed.push(`${file} ${is === undefined && isUntracked(was) ? 'removed' : 'edited'}`)
    }
  }
  return changes
}

/** At most this many files are kept of what a run’s sources held beyond HEAD (`fileDigests`): more, and a stale run names none. */
export const maxKeptFiles = 1000

/**
 * What a fingerprint hashes (`files`), kept short for the status file: each
 * file by its kind (`changed`, `untracked`, `skipped`, `submodule`,
 * `repository`) and 16 hex digits of its entry, so a later judgement can
 * name what changed since; `null` past `maxKeptFiles` files.
 */
export function fileDigests(files: ReadonlyMap<string, string>): Record<string, string> | null {
  if (files.size > maxKeptFiles) return null
  const kept = Object.create(null) as Record<string, string>
  for (const [file, entry] of files) kept[file] = `${entry.slice(0, entry.indexOf('\0'))}:${createHash('sha256').update(entry).digest('hex').slice(0, 16)}`
  return kept
}

/**
 * The files that differ between two `fileDigests` of the same HEAD, each as
 * `<path> edited`, `<path> added` (a file git does not track, or a
 * repository inside, that appeared) or `<path> removed` (one that is gone),
 * in path order.
 */
export function changedFiles(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  const loose = (entry: string | undefined) => entry !== undefined && /^(?:untracked|repository):/.test(entry)
  const changed: string[] = []
  for (const file of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const was = Object.hasOwn(before, file) ? before[file] : undefined
    const is = Object.hasOwn(after, file) ? after[file] : undefined
    if (was === is) continue
    // A tracked file back as HEAD has it was edited; a file git does not track came or went.
    changed.push(`${file} ${was === undefined && loose(is) ? 'added' : is === undefined && loose(was) ? 'removed' : 'edited'}`)
  }
  return changed
}

/** Of `known`, the files that are no longer there as files git does not track (`fingerprint` is after the run). */
export function goneOutputs(known: Iterable<string>, fingerprint: SourceFingerprint): string[] {
  return [...known].filter((file) => {
    const entry = fingerprint.files.get(file)
    return entry === undefined || !isUntracked(entry)
  })
}
