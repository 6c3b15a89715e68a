/**
 * What decides which files a lint finds, as it is now: the folders under the
 * paths given (each one’s entries by name and kind), the ignore files that
 * apply, and the options that choose files. Two equal snapshots find the
 * same files, so a cached run may replay what it found without the engine.
 * Anything it cannot tell (a glob) gives no snapshot: the engine finds them.
 */
import {createHash} from 'node:crypto'
import {readdirSync, statSync} from 'node:fs'
import type {Stats} from 'node:fs'
import path from 'node:path'
import {readRegularFile} from './regular-file.js'
import type {LintSettings} from './settings.js'

/** Folders never walked: the engine never lints what is in them unless a path names it. */
const skipped = new Set(['node_modules', '.git'])

const ignoreName = '.remarkignore'

// A path with these is a glob: the files it matches are for the engine to find.
const globCharacters = /[*?[\]{}!()]/

// Read at once, not through the thread pool: a run the cache answers whole does little else, and each wait costs more than the read.
// Only a regular file is opened: a FIFO would hold the run.
function contentOrAbsent(file: string): string {
  const content = readRegularFile(file)
  return content === null ? '-' : content === 'other' ? 'o' : `=${content.toString('utf8')}`
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file)
  } catch {
    return null
  }
}

/** Each folder from `folder` up to the root: ignore files there apply to every file below. */
function ancestors(folder: string): string[] {
  const list = [folder]
  for (let parent = path.dirname(folder); parent !== list.at(-1); parent = path.dirname(parent)) list.push(parent)
  return list
}

/** The options that choose which files a lint finds: the key a run is remembered under, and part of its snapshot. */
export function foundFilesKey(settings: Pick<LintSettings, 'files' | 'detectIgnore' | 'ignorePath' | 'ignorePatterns'>): string {
  return JSON.stringify([settings.files, settings.detectIgnore, settings.ignorePath ?? null, settings.ignorePatterns])
}

/**
 * A digest of what decides the files a lint of `settings.files` finds, or
 * `null` when a path is a glob. Missing paths count as missing: creating one
 * changes the snapshot.
 */
export async function foundFilesSnapshot(
  settings: Pick<LintSettings, 'cwd' | 'files' | 'detectIgnore' | 'ignorePath' | 'ignorePatterns'>,
  /** A file left out (the lint cache itself, and the temporary files it is written through), as it changes with every run. */
  own?: string
): Promise<string | null> {
  if (settings.files.some((file) => globCharacters.test(file))) return null
  const hash = createHash('sha256').update(foundFilesKey(settings))
  if (settings.ignorePath) hash.update(contentOrAbsent(path.resolve(settings.cwd, settings.ignorePath)))
  const walked = new Set<string>()
  for (const given of settings.files) {
    const absolute = path.resolve(settings.cwd, given)
    const info = statOrNull(absolute)
    hash.update(`\0${absolute}\0${info === null ? 'missing' : info.isDirectory() ? 'folder' : 'file'}`)
    const top = info?.isDirectory() ? absolute : path.dirname(absolute)
    if (settings.detectIgnore) for (const folder of ancestors(top)) hash.update(`\0${folder}${contentOrAbsent(path.join(folder, ignoreName))}`)
    if (!info?.isDirectory()) continue
    const folders = [absolute]
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      if (walked.has(folder)) continue
      walked.add(folder)
      const entries = readdirSync(folder, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      hash.update(`\0${folder}\0`)
      for (const entry of entries) {
        const full = path.join(folder, entry.name)
        if (own !== undefined && (full === own || full.startsWith(own + '.'))) continue
        if (skipped.has(entry.name)) {
          hash.update(`skipped:${entry.name}/`)
          continue
        }
        // A link may lead anywhere, and change there: the engine finds what is behind it.
        if (entry.isSymbolicLink()) return null
        hash.update(`${entry.isDirectory() ? 'd' : entry.isFile() ? 'f' : 'o'}:${entry.name}/`)
        if (entry.isDirectory()) folders.push(full)
        if (entry.name === ignoreName && settings.detectIgnore) hash.update(contentOrAbsent(full))
      }
    }
  }
  return hash.digest('hex')
}
