import {stat} from 'node:fs/promises'
import path from 'node:path'
import type {Step} from './files.js'
import {readIfPresent} from './files.js'

export const gitignoreFile = '.gitignore'

/**
 * The files of the state folder (`<folder>/tiers`) that stay out of git,
 * and why: each is rebuilt, or is one machine's. The slice files beside
 * them (`S-01.json`: a slice's answers, rejections and decisions) are the
 * project's history, and belong in git.
 */
const localState = [
  ['verification-status.json', 'the last verification run on this machine'],
  ['stop-hook.json', 'the Stop hook’s count of blocked stops'],
  ['.verify-lint-cache', '`tiers verify`’s lint cache'],
  ['*.lock', 'locks held while a command writes'],
  ['.lint-cache', '`tiers lint`’s cache']
] as const

/** The lines that ignore the project's `node_modules` folder, as people write them. */
const nodeModulesLines = ['node_modules', 'node_modules/', '/node_modules', '/node_modules/', '**/node_modules', '**/node_modules/']

/** Whether `file` is a folder (or a link to one). */
async function isFolder(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isDirectory(),
    () => false
  )
}

/** What `tiers init` says goes to git and what does not, for the project whose state folder is `stateFolder`. */
export function stateInGit(stateFolder: string): string {
  const kept = localState.map(([, what]) => what)
  return `commit ${stateFolder}/<slice>.json (each slice’s answers and history); ${kept.slice(0, -1).join(', ')} and ${kept.at(-1)} stay out of git`
}

/** The ignore lines for a project whose state folder is `stateFolder` (`.greenlight/tiers`). */
export function ignoreEntries(stateFolder: string): string[] {
  return localState.map(([name]) => `${stateFolder}/${name}`)
}

/**
 * The git step: the caches and local state files in `.gitignore` (and the
 * project's `node_modules/`, when there is one and nothing ignores it), after
 * the user's lines, none of which is changed or moved; an entry already
 * there (as the same line) is not added again.
 */
export async function planGitignore(cwd: string, stateFolder: string): Promise<Step> {
  const text = await readIfPresent(cwd, gitignoreFile)
  const present = new Set((text ?? '').split(/\r?\n/).map((line) => line.trim()))
  const missing = ignoreEntries(stateFolder).filter((entry) => !present.has(entry))
  // Installing tiers in the project made `node_modules/`: thousands of files no one means to commit.
  if ((await isFolder(path.join(cwd, 'node_modules'))) && !nodeModulesLines.some((line) => present.has(line))) missing.push('node_modules/')
  if (missing.length === 0) return {kind: 'unchanged', file: gitignoreFile, reason: 'it already ignores the caches and local state'}
  const eol = text?.includes('\r\n') ? '\r\n' : '\n'
  const before = text ?? ''
  // A file without a final line ending gets one, so that its last line stays as it is.
  const lead = before === '' ? '' : before.endsWith('\n') ? eol : eol + eol
  const block = ['# verification-tiers: caches and local state', ...missing].join(eol) + eol
  const change = `ignores ${missing.length === 1 ? missing[0] : `${missing.length} caches and local state files`}`
  return {kind: 'write', planned: {file: gitignoreFile, before: text, after: before + lead + block, change}}
}
