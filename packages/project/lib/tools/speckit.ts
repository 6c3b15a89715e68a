import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {describeContractProblem} from '@verification-tiers/contracts/gate-terms'
import {defaultReadLimits, isSliceId, sliceIdRule} from '@verification-tiers/runtime'
import {openBudget} from '../budget.js'
import type {ReadBudget} from '../budget.js'
import type {LoadedContract} from '../project.js'
import type {ProjectProblem} from '../problems.js'
import {readCountedFile} from './read-file.js'
import {listFolder, unlistedFolder} from '../walk.js'
import {readOpenTasks} from './tasks.js'
import type {ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/** A feature folder of spec-kit: a number, a dash, a name (`001-photo-albums`). */
const featureFolder = /^\d+-\S/

/** The folder of tiers' state files inside the project folder. */
const stateFolder = 'tiers'

/**
 * spec-kit: `specs/NNN-feature/spec.md` (user stories with acceptance
 * scenarios and an independent test), `tasks.md` (checkboxes). A feature
 * folder is a slice, each user story a contract.
 */
export const speckit: ProjectTool = {
  name: 'spec-kit',
  folder: 'specs',
  /**
   * A feature folder holding `spec.md`. What cannot be read is never taken
   * for no project: `specs/` that cannot be listed, a feature folder that
   * cannot, and a link or a name not in UTF-8 where a feature folder would
   * be each make it one, for the reader to name.
   */
  async recognises(dir) {
    const refused: ProjectProblem[] = []
    const entries = await listFolder(dir, refused, {reads: () => false})
    const named = (problem: ProjectProblem) => (problem.file === dir ? path.basename(dir) === speckit.folder : featureFolder.test(path.basename(problem.file)))
    if (refused.some(named)) return true
    for (const entry of entries) {
      if (entry.kind !== 'folder' || !featureFolder.test(entry.name)) continue
      const spec = await readdir(entry.path).catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' || error.code === 'ENOTDIR' ? ([] as string[]) : null
      )
      if (spec === null || spec.includes('spec.md')) return true
    }
    return false
  },
  read: readSpecKit
}

async function readSpecKit(dir: string, options: ToolReadOptions): Promise<ToolReading> {
  const reading: ToolReading = {contracts: [], slices: [], problems: []}
  const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
  // Files beside the features are not read; a folder that cannot be listed, linked or named is a problem.
  const entries = await listFolder(dir, reading.problems, {reads: () => false})
  for (const {name, kind, path: folder} of entries) {
    // tiers' own state lives in the folder it reads (`tiers/`), as in `.greenlight`.
    if (name === stateFolder && kind === 'folder') continue
    // A file beside the feature folders (a roadmap, a test plan) is no feature: spec-kit writes its features in folders.
    if (kind !== 'folder') continue
    if (!featureFolder.test(name) || !isSliceId(name)) {
      const why = featureFolder.test(name) ? `its name is no slice id (${sliceIdRule})` : 'expected a feature folder named `NNN-name` holding spec.md'
      reading.problems.push({file: folder, line: null, message: `Unexpected folder, ${why}; tiers does not read it`})
      continue
    }
    const feature = await readFeature(folder, name, options, budget)
    for (const problem of feature.problems) reading.problems.push(problem)
    if (feature.contracts.length === 0) continue
    for (const contract of feature.contracts) reading.contracts.push(contract)
    reading.slices.push({
      id: name,
      name: feature.title ?? name,
      contracts: feature.contracts,
      missing: [],
      tier: options.defaultTier === 'auto' ? 'auto' : null,
      humanCheck: null,
      verification: null,
      retired: null,
      openTasks: feature.tasks.open,
      optionalTasks: feature.tasks.optional
    })
  }
  return reading
}

interface Feature {
  title: string | null
  contracts: LoadedContract[]
  problems: ProjectProblem[]
  tasks: Awaited<ReturnType<typeof readOpenTasks>>
}

/** One feature folder: its spec's user stories as contracts, and its open tasks. */
async function readFeature(folder: string, id: string, options: ToolReadOptions, budget: ReadBudget): Promise<Feature> {
  // A feature folder that cannot be listed cannot be read: one problem naming it, not one for each of its files.
  const unlisted = await unlistedFolder(folder)
  if (unlisted) return {title: null, contracts: [], problems: [unlisted], tasks: {open: [], optional: []}}
  const file = path.join(folder, 'spec.md')
  // A spec that cannot be read (not UTF-8, not a regular file, too large) is a problem naming it: the feature's other problems still show.
  const problems: ProjectProblem[] = []
  const text = await readCountedFile(file, budget, problems)
  const tasks = await readOpenTasks(path.join(folder, 'tasks.md'), options.optionalTasks, budget, problems)
  const feature: Feature = {title: null, contracts: [], problems, tasks}
  if (text === null) return feature
  if (text === undefined) {
    feature.problems.push({file: folder, line: null, message: `Unexpected feature folder without spec.md, expected \`${id}/spec.md\` with user stories`})
    return feature
  }
  const {asStory, readStories} = await import('@verification-tiers/spec-tools')
  const stories = readStories(file, text)
  feature.title = stories.title
  for (const problem of stories.problems) feature.problems.push({file, line: problem.place.start.line, message: describeContractProblem(problem)})
  if (stories.contracts.length === 0) {
    feature.problems.push({
      file,
      line: stories.sectionLine,
      message: 'Unexpected spec without user stories, expected headings such as `### User Story 1 - Title (Priority: P1)` with their acceptance scenarios'
    })
    return feature
  }
  for (const contract of stories.contracts) {
    const story = asStory(contract)
    if (story.criteria.length === 0) {
      feature.problems.push({
        file,
        line: contract.headingPosition.start.line,
        message: `Unexpected user story ${story.label} without acceptance scenarios, expected **Acceptance Scenarios**: with numbered Given/When/Then items`
      })
    }
    const {start, end} = contract.position
    feature.contracts.push({contract: {...story, slice: id}, file, source: text.slice(start.offset ?? 0, end.offset ?? text.length)})
  }
  return feature
}
