import {lstat, readdir, stat} from 'node:fs/promises'
import path from 'node:path'
import {bmad, bmadV4} from './bmad.js'
import {greenlight} from './greenlight.js'
import {gsd} from './gsd.js'
import {kiro} from './kiro.js'
import {openspec} from './openspec.js'
import {speckit} from './speckit.js'
import type {ProjectTool} from './types.js'

export {greenlight} from './greenlight.js'
export type {OpenTask, OptionalTasks, ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/**
 * The readers of the spec-driven tools besides Greenlight (which the loader
 * reads itself), in the order a folder is tried: the first that recognises
 * a folder reads it.
 */
export const tools: readonly ProjectTool[] = [speckit, openspec, kiro, gsd, bmad, bmadV4]

/** The folders looked for, in order, in each folder from the working one up: `.greenlight`, then each tool's. */
export const projectFolderNames: readonly string[] = [greenlight.folder, ...tools.map((tool) => tool.folder)]

/**
 * The tool whose reader reads `dir`, or `null`: a Greenlight folder, or one
 * no tool recognises. A folder named as a tool's and in its format whose
 * only Greenlight file is `config.json` is that tool's: GSD writes its own
 * `.planning/config.json`.
 */
export async function toolFor(dir: string): Promise<ProjectTool | null> {
  const named = tools.find((tool) => tool.folder === path.basename(path.resolve(dir)))
  const ownConfig = named !== undefined && (await greenlight.filesIn(dir)).every((file) => file === 'config.json')
  if (named && ownConfig && (await named.recognises(dir))) return named
  if (await greenlight.recognises(dir)) return null
  for (const tool of tools) {
    if (await tool.recognises(dir)) return tool
  }
  return null
}

/**
 * The project folder for work in `start`, as git finds `.git`: the nearest
 * folder, from `start` upward, that is a project by what it holds: a
 * `.greenlight` holding anything besides tiers' own state (`tiers/`) and
 * hidden files, or a tool's folder its tool recognises (`specs` holding
 * `NNN-name/spec.md`, `openspec`, `.kiro`). A nearer `.greenlight` holding
 * only tiers' state (left by a run there) or nothing, or a folder that is
 * another tool's by name only, is passed by. When no folder up to the root
 * is a project, the nearest `.greenlight` of any kind, so the loader says
 * what is wrong with it rather than the walk finding nothing; else `null`.
 */
export async function findProjectFolder(start: string): Promise<string | null> {
  return (await findProjectFolders(start))[0] ?? null
}

/**
 * Every project folder of the nearest folder, from `start` upward, that
 * holds one (`findProjectFolder`'s is the first): a repository may keep a
 * `.greenlight` beside a spec-kit `specs/`, and each is gated, never one
 * hiding the other.
 */
export async function findProjectFolders(start: string): Promise<string[]> {
  let folder = path.resolve(start)
  let nearestNamed: string | null = null
  for (;;) {
    const found: string[] = []
    const own = path.join(folder, greenlight.folder)
    const named = await lstat(own).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR'
    )
    if (named && (await holdsGreenlightProject(own))) found.push(own)
    nearestNamed ??= named ? own : null
    for (const tool of await toolFoldersIn(folder)) found.push(tool)
    if (found.length > 0) return found
    const parent = path.dirname(folder)
    if (parent === folder) return nearestNamed === null ? [] : [nearestNamed]
    folder = parent
  }
}

/** tiers' own state folder in a project folder, which says nothing of whether the folder is a project. */
const stateFolder = 'tiers'

/**
 * Whether `dir` (named `.greenlight`) is a project by what it holds: an
 * entry besides `tiers/` and hidden files. One that cannot be listed counts
 * (what cannot be read is never taken for no project).
 */
async function holdsGreenlightProject(dir: string): Promise<boolean> {
  const info = await stat(dir).catch(() => null)
  if (info === null) return true
  if (!info.isDirectory()) return false
  const entries = await readdir(dir).catch(() => null)
  if (entries === null) return true
  return entries.some((entry) => entry !== stateFolder && !entry.startsWith('.'))
}

/** The folders of `folder` that a tool recognises as its own. */
async function toolFoldersIn(folder: string): Promise<string[]> {
  const found: string[] = []
  for (const tool of tools) {
    const candidate = path.join(folder, tool.folder)
    const isFolder = await stat(candidate).then(
      (each) => each.isDirectory(),
      () => false
    )
    if (isFolder && (await tool.recognises(candidate))) found.push(candidate)
  }
  return found
}
