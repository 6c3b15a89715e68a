import {lstat, stat} from 'node:fs/promises'
import path from 'node:path'
import {greenlight} from './greenlight.js'
import {kiro} from './kiro.js'
import {openspec} from './openspec.js'
import {speckit} from './speckit.js'
import type {ProjectTool} from './types.js'

export {greenlight} from './greenlight.js'
export type {OpenTask, ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/**
 * The readers of the spec-driven tools besides Greenlight (which the loader
 * reads itself), in the order a folder is tried: the first that recognises
 * a folder reads it.
 */
export const tools: readonly ProjectTool[] = [speckit, openspec, kiro]

/** The folders looked for, in order, in each folder from the working one up: `.greenlight`, then each tool's. */
export const projectFolderNames: readonly string[] = [greenlight.folder, ...tools.map((tool) => tool.folder)]

/** The tool whose reader reads `dir`, or `null`: a Greenlight folder, or one no tool recognises. */
export async function toolFor(dir: string): Promise<ProjectTool | null> {
  if (await greenlight.recognises(dir)) return null
  for (const tool of tools) {
    if (await tool.recognises(dir)) return tool
  }
  return null
}

/**
 * The project folder for work in `start`, as git finds `.git`: in `start`,
 * else in the nearest folder above it, the first of `.greenlight` (anything
 * so named counts: the loader says what is wrong with it, rather than the
 * walk passing it by) and each tool's folder that its tool recognises
 * (`specs` holding `NNN-name/spec.md`, `openspec`, `.kiro`); `null` when no
 * folder up to the root has one.
 */
export async function findProjectFolder(start: string): Promise<string | null> {
  let folder = path.resolve(start)
  for (;;) {
    const found = await projectFolderIn(folder)
    if (found !== null) return found
    const parent = path.dirname(folder)
    if (parent === folder) return null
    folder = parent
  }
}

async function projectFolderIn(folder: string): Promise<string | null> {
  const own = path.join(folder, greenlight.folder)
  const info = await lstat(own).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : 'unreadable'))
  if (info !== null) return own
  for (const tool of tools) {
    const candidate = path.join(folder, tool.folder)
    const isFolder = await stat(candidate).then((each) => each.isDirectory(), () => false)
    if (isFolder && (await tool.recognises(candidate))) return candidate
  }
  return null
}
