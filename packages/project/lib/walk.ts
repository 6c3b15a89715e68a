import {isUtf8} from 'node:buffer'
import type {Dirent} from 'node:fs'
import {readdir, readlink, stat} from 'node:fs/promises'
import path from 'node:path'
import {firstNonUtf8} from '@verification-tiers/runtime'
import type {ProjectProblem} from './problems.js'

/*
 * How every reader walks the folders that hold contracts (Greenlight's
 * `contracts/`, spec-kit's `specs/`, OpenSpec's changes and their `specs/`,
 * Kiro's `specs/`): nothing in them is skipped in silence. A folder that
 * cannot be listed, a name that is not UTF-8, a symbolic link and a folder
 * deeper than the walk goes are each a problem naming it, and the gate
 * passes nothing while any is there.
 *
 * Symbolic links are refused, never followed. Followed, a link lets whoever
 * writes the folder (an agent, too) point the gate at any file or folder on
 * the machine: outside the repository, where no review of the change sees
 * what the gate reads, at the same contracts twice, or back at a folder
 * above it, without end. "Followed within the project" would need the real
 * path of every target checked against the project's, and it would still
 * read one file under two names; refused, a link costs its author one move
 * (the file itself in its place), and the gate reads only what the project
 * holds. A link is a problem where it could lead to something read: to a
 * folder, or named as a file the reader reads (`*.md`); a link to any other
 * file is left as that file would be. The paths a format names (the project
 * folder, Greenlight's `CONTRACTS.md` and `contracts/`, spec-kit's `spec.md`,
 * OpenSpec's `changes/`) are not found by a walk: they are opened by their
 * name, one each, as every input is (`readInputFile`: a regular file, of
 * bounded size, in UTF-8).
 */

/** An entry of a folder that the reader may read: its name is UTF-8 and it is no link. */
export interface FolderEntry {
  name: string
  /** Path as messages show it. */
  path: string
  /** `other`: a FIFO, a socket or a device, which the reader opens to say what it is, or names. */
  kind: 'file' | 'folder' | 'other'
}

/** How a folder is listed. */
export interface ListOptions {
  /**
   * Whether the reader reads a file of this name: a link, or a name not in
   * UTF-8, of a file it reads is a problem; of another file, left as the
   * file would be. Folders always count.
   */
  reads: (name: string) => boolean
}

/** How a folder is walked, its subfolders too. */
export interface WalkOptions extends ListOptions {
  /** How many folders down the walk goes; a folder deeper is a problem (`tooDeep`). */
  depth: number
  /** The message of a folder deeper than `depth`: `Unexpected folder nested more than …, expected …`. */
  tooDeep: string
}

/**
 * The entries of `folder`, sorted by name, without hidden ones (`.git`,
 * `.DS_Store`): none when there is no folder. A folder that cannot be
 * listed, a link that could lead to something read, and a name that is not
 * UTF-8 (of a folder, or of a file the reader reads) are each a problem
 * pushed to `problems`, never an entry.
 */
export async function listFolder(folder: string, problems: ProjectProblem[], {reads}: ListOptions): Promise<FolderEntry[]> {
  let entries: Array<Dirent<Buffer>>
  try {
    // Names as bytes: decoded as UTF-8, a name that is not would come out as another name, of no file.
    entries = await readdir(folder, {withFileTypes: true, encoding: 'buffer'})
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') problems.push(unlisted(folder, error as NodeJS.ErrnoException))
    return []
  }
  const found: FolderEntry[] = []
  const refused: ProjectProblem[] = []
  for (const entry of entries) {
    const bytes = entry.name
    // A hidden entry (a leading `.`, whatever follows) is not the reader's: tiers' own and the system's files.
    if (bytes[0] === 0x2e) continue
    const utf8 = isUtf8(bytes)
    const name = utf8 ? bytes.toString('utf8') : escapeBytes(bytes)
    const shown = path.join(folder, name)
    const kind = entry.isDirectory() ? 'folder' : entry.isSymbolicLink() ? 'link' : entry.isFile() ? 'file' : 'other'
    if (!utf8) {
      if (kind === 'folder' || kind === 'link' || reads(name)) refused.push(badName(shown, bytes, kind === 'folder' ? 'folder' : 'file'))
      continue
    }
    if (kind === 'link') {
      const problem = await linkProblem(shown, reads(name))
      if (problem) refused.push(problem)
      continue
    }
    found.push({name, path: shown, kind})
  }
  for (const problem of refused.sort(byFile)) problems.push(problem)
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * The files under `folder` that the reader reads (`reads`), sorted, in
 * every subfolder down to `depth`, as `listFolder` finds them: what it
 * cannot list, name or reach is a problem.
 */
export function walkFiles(folder: string, problems: ProjectProblem[], options: WalkOptions): Promise<FolderEntry[]> {
  return walkBelow(folder, problems, options, 0)
}

async function walkBelow(folder: string, problems: ProjectProblem[], options: WalkOptions, depth: number): Promise<FolderEntry[]> {
  const files: FolderEntry[] = []
  for (const entry of await listFolder(folder, problems, options)) {
    if (entry.kind !== 'folder') {
      if (options.reads(entry.name)) files.push(entry)
    } else if (depth < options.depth) {
      for (const file of await walkBelow(entry.path, problems, options, depth + 1)) files.push(file)
    } else {
      problems.push({file: entry.path, line: null, message: options.tooDeep})
    }
  }
  return files
}

/**
 * The problem of `folder` when it is there but cannot be listed, else
 * `null`: for a folder whose files are read by their names, where what
 * cannot be reached is one problem, not one for each file.
 */
export async function unlistedFolder(folder: string): Promise<ProjectProblem | null> {
  return readdir(folder).then(
    () => null,
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : unlisted(folder, error))
  )
}

/** The problem of a folder that cannot be listed. */
function unlisted(folder: string, error: NodeJS.ErrnoException): ProjectProblem {
  if (error.code === 'ENOTDIR') return {file: folder, line: null, message: 'Unexpected file, expected a folder'}
  return {file: folder, line: null, message: `Unexpected folder that cannot be listed (${error.code ?? error.message}), expected a folder tiers can read`}
}

/**
 * The problem of a link at `file`, or `null` for a link to a file the reader
 * does not read (`named` says whether it reads a file of that name). A
 * target that cannot be looked at (a loop, no permission) may be a folder.
 */
async function linkProblem(file: string, named: boolean): Promise<ProjectProblem | null> {
  if (!named) {
    const target = await stat(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : error))
    if (target === null || (!(target instanceof Error) && !target.isDirectory())) return null
  }
  const to = await readlink(file).catch(() => null)
  const where = to === null ? '' : ` to ${JSON.stringify(to)}`
  return {file, line: null, message: `Unexpected symbolic link${where}, expected the file or folder itself: tiers follows no link in a folder of contracts`}
}

/** The problem of a name that is not UTF-8, shown with its first byte that is not. */
function badName(file: string, bytes: Buffer, kind: 'file' | 'folder'): ProjectProblem {
  const byte = bytes[firstNonUtf8(bytes)].toString(16).toUpperCase().padStart(2, '0')
  const read = kind === 'folder' ? 'what it holds is not read' : 'it is not read'
  return {file, line: null, message: `Unexpected ${kind} name with byte 0x${byte}, which is not UTF-8, expected a name in UTF-8 (rename it): ${read}`}
}

/** A name as messages show it: its UTF-8 as it is, each byte that is not UTF-8 as `\xFF`. */
export function escapeBytes(bytes: Buffer): string {
  let shown = ''
  let rest = bytes
  for (;;) {
    const bad = firstNonUtf8(rest)
    shown += rest.subarray(0, bad).toString('utf8')
    if (bad === rest.length) return shown
    shown += `\\x${rest[bad].toString(16).toUpperCase().padStart(2, '0')}`
    rest = rest.subarray(bad + 1)
  }
}

function byFile(a: ProjectProblem, b: ProjectProblem): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0
}
