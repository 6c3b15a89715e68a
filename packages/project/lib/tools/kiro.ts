import {stat} from 'node:fs/promises'
import path from 'node:path'
import {isSliceId, sliceIdRule} from '@verification-tiers/contracts/gate-terms'
import {defaultReadLimits} from '@verification-tiers/runtime'
import {openBudget} from '../budget.js'
import type {ReadBudget} from '../budget.js'
import {ProjectError} from '../errors.js'
import type {ProjectSlice} from '../project.js'
import type {ProjectProblem} from '../problems.js'
import {readCountedFile} from './read-file.js'
import {readOpenTasks} from './tasks.js'
import type {ProjectTool, ToolReading, ToolReadOptions} from './types.js'
import {listFolder, unlistedFolder} from '../walk.js'

/** What a feature folder must hold, as the problems of one that does not say it. */
const format = '`requirements.md` with `### Requirement 1` headings, each with its `#### Acceptance Criteria` list (or `bugfix.md` for a bugfix spec)'

/**
 * Kiro: `.kiro/specs/<feature>/requirements.md`, `design.md`, `tasks.md`.
 * Each feature folder is a slice (its folder name the id), each requirement
 * of its `requirements.md` a contract, the items of its Acceptance Criteria
 * the criteria; a bugfix spec's folder holds `bugfix.md` instead, whose
 * expected and unchanged behaviors are its contracts. The unticked (and
 * in-progress) checkboxes of its `tasks.md` are the slice's open tasks. A
 * folder not in this format is a problem naming it, and is not read.
 */
/** The file of a feature folder that holds its units: a feature's, or a bugfix spec's. */
const unitFiles = ['requirements.md', 'bugfix.md'] as const

export const kiro: ProjectTool = {
  name: 'kiro',
  folder: '.kiro',

  /**
   * A feature folder holding `requirements.md`. What cannot be read is
   * never taken for no project: a `.kiro` whose `specs/` cannot be listed,
   * a link or a name not in UTF-8 in `specs/`, a feature folder that cannot
   * be looked in, each make it one, for the reader to name.
   */
  async recognises(dir) {
    const {folders, problems} = await specsEntries(dir)
    if (problems.length > 0 && path.basename(dir) === kiro.folder) return true
    for (const feature of folders) {
      for (const unitFile of unitFiles) {
        const info = await stat(path.join(dir, 'specs', feature, unitFile)).catch((error: NodeJS.ErrnoException) =>
          error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : error
        )
        if (info instanceof Error || info?.isFile()) return true
      }
    }
    return false
  },

  read: readKiro,

  /** A feature moved into a folder of `specs/` named with a leading `_` (`_archived/<feature>`). */
  async archived(dir, id) {
    const entries = await listFolder(path.join(dir, 'specs'), [], {reads: () => false})
    for (const entry of entries) {
      if (entry.kind === 'folder' && entry.name.startsWith('_') && (await stat(path.join(entry.path, id)).catch(() => null))?.isDirectory()) return true
    }
    return false
  }
}

/**
 * The folders under `specs/`, sorted, and its markdown files (a README);
 * hidden ones (`.DS_Store`, `.git`) are neither, and `_archived/` no
 * feature. What cannot be listed, linked or named there is in `problems`
 * (see `walk.ts`).
 */
async function specsEntries(dir: string): Promise<{folders: string[]; files: string[]; problems: ProjectProblem[]}> {
  const problems: ProjectProblem[] = []
  const entries = await listFolder(path.join(dir, 'specs'), problems, {reads: (name) => markdownName.test(name)})
  // A folder named with a leading `_` (`_archived/`) holds what is no longer a feature, as `changes/archive/` does in OpenSpec.
  const folders = entries.filter((entry) => entry.kind === 'folder' && !entry.name.startsWith('_')).map((entry) => entry.name)
  const files = entries.filter((entry) => entry.kind !== 'folder' && markdownName.test(entry.name)).map((entry) => entry.name)
  return {folders, files, problems}
}

/** The markdown files of `specs/` itself, read for requirements in no feature. */
const markdownName = /\.(?:md|markdown)$/i

/** A requirement written in a markdown file of `specs/` itself is in no feature: a problem at each, never a silent skip. */
async function loneRequirements(dir: string, files: readonly string[], budget: ReadBudget, problems: ProjectProblem[]): Promise<void> {
  const [{requirementWord, parseMarkdownText}, {toString}] = await Promise.all([import('@verification-tiers/spec-tools'), import('mdast-util-to-string')])
  for (const name of files) {
    const file = path.join(dir, 'specs', name)
    const text = await readCountedFile(file, budget, problems)
    if (typeof text !== 'string') continue
    // Headings of the document: a template in a fenced example shows a requirement, it is none.
    for (const node of parseMarkdownText(text).children) {
      if (node.type !== 'heading' || !requirementWord.test(toString(node).trim())) continue
      problems.push({
        file,
        line: node.position?.start.line ?? null,
        message: 'Unexpected requirement in a file of specs/ itself, expected it in specs/<feature>/requirements.md, a feature folder of its own'
      })
    }
  }
}

async function readKiro(dir: string, options: ToolReadOptions): Promise<ToolReading> {
  const specs = path.join(dir, 'specs')
  // The markdown parser loads when there is a folder to read, not when the tool is registered.
  const {readBugfix, readRequirements} = await import('@verification-tiers/spec-tools')
  const {folders: features, files, problems: unread} = await specsEntries(dir)
  const reading: ToolReading = {contracts: [], slices: [], problems: [...unread]}
  const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
  await loneRequirements(dir, files, budget, reading.problems)
  for (const feature of features) {
    const folder = path.join(specs, feature)
    if (!isSliceId(feature)) {
      reading.problems.push({
        file: folder,
        line: null,
        message: `Unexpected feature folder name ${JSON.stringify(feature)}, expected ${sliceIdRule}; the folder is not read`
      })
      continue
    }
    // A feature folder that cannot be listed cannot be read: one problem naming it, not one for each of its files.
    const unlisted = await unlistedFolder(folder)
    if (unlisted) {
      reading.problems.push(unlisted)
      continue
    }
    let requirementsFile = path.join(folder, 'requirements.md')
    let text = await readCountedFile(requirementsFile, budget, reading.problems)
    if (text === null) continue
    // A bugfix spec writes `bugfix.md` where a feature writes `requirements.md`.
    const bugfix = text === undefined
    if (bugfix) {
      requirementsFile = path.join(folder, 'bugfix.md')
      text = await readCountedFile(requirementsFile, budget, reading.problems)
      if (text === null) continue
    }
    if (text === undefined) {
      reading.problems.push({
        file: folder,
        line: null,
        message: `Unexpected feature folder without requirements.md, expected ${format}; the folder is not read`
      })
      continue
    }
    const unitOptions = {slice: feature, defaultTier: options.defaultTier}
    const read = bugfix ? readBugfix(requirementsFile, text, unitOptions) : readRequirements(requirementsFile, text, unitOptions)
    if (read.contracts.length === 0 && !bugfix) {
      reading.problems.push({
        file: requirementsFile,
        line: null,
        message: `Unexpected requirements.md without a requirement, expected ${format}; the folder is not read`
      })
    }
    // Lines that hid a requirement say why a file has none.
    for (const problem of read.problems) reading.problems.push(problem)
    if (read.contracts.length === 0) continue
    for (const contract of read.contracts) reading.contracts.push(contract)
    reading.slices.push({
      id: feature,
      name: feature,
      contracts: read.contracts,
      missing: [],
      // A tier the project sets for Kiro's requirements is the one each takes when it states none.
      tier: options.defaultTier === 'verify' ? null : options.defaultTier,
      humanCheck: null,
      verification: null,
      retired: null,
      ...(await featureTasks(path.join(folder, 'tasks.md'), budget, reading.problems, options))
    })
  }
  // With nothing read, what the walk could not read says why; without it, the folder is not Kiro's format.
  if (reading.slices.length === 0 && unread.length === 0) {
    const seen =
      features.length === 0
        ? 'no feature folder'
        : `${features.length} feature folder${features.length === 1 ? '' : 's'} not in its format (${features.join(', ')})`
    throw new ProjectError(specs, `Unexpected Kiro specs folder with ${seen}, expected specs/<feature>/${format}`)
  }
  return reading
}

/** The open tasks of a feature's `tasks.md`, and its open optional ones (`- [ ]*`) apart unless they hold: none when it has no such file. */
async function featureTasks(
  file: string,
  budget: ReadBudget,
  problems: ProjectProblem[],
  options: ToolReadOptions
): Promise<Pick<ProjectSlice, 'openTasks' | 'optionalTasks'>> {
  const {open, optional} = await readOpenTasks(file, options.optionalTasks, budget, problems)
  return {openTasks: open, optionalTasks: optional}
}
