import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {describeContractProblem} from '@verification-tiers/contracts/gate-terms'
import {inputLimits, isSliceId, readInputFile, sliceIdRule} from '@verification-tiers/runtime'
import type {LoadedContract} from '../project.js'
import type {ProjectProblem} from '../problems.js'
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
  async recognises(dir) {
    const entries = await readdir(dir, {withFileTypes: true}).catch(() => [])
    for (const entry of entries) {
      if (!entry.isDirectory() || !featureFolder.test(entry.name)) continue
      const spec = await readdir(path.join(dir, entry.name)).catch(() => [] as string[])
      if (spec.includes('spec.md')) return true
    }
    return false
  },
  read: readSpecKit
}

async function readSpecKit(dir: string, options: ToolReadOptions): Promise<ToolReading> {
  const entries = await readdir(dir, {withFileTypes: true})
  const reading: ToolReading = {contracts: [], slices: [], problems: []}
  const names = entries.map((entry) => entry.name).sort()
  for (const name of names) {
    const entry = entries.find((each) => each.name === name)!
    const folder = path.join(dir, name)
    // tiers' own state lives in the folder it reads (`tiers/`), as in `.greenlight`.
    if (name.startsWith('.') || (name === stateFolder && entry.isDirectory())) continue
    // A file beside the feature folders (a roadmap, a test plan) is no feature: spec-kit writes its features in folders.
    if (!entry.isDirectory()) continue
    if (!featureFolder.test(name) || !isSliceId(name)) {
      const why = featureFolder.test(name) ? `its name is no slice id (${sliceIdRule})` : 'expected a feature folder named `NNN-name` holding spec.md'
      reading.problems.push({file: folder, line: null, message: `Unexpected folder, ${why}; tiers does not read it`})
      continue
    }
    const feature = await readFeature(folder, name, options)
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
  tasks: Pick<Awaited<ReturnType<typeof readOpenTasks>>, 'open' | 'optional'>
}

/** One feature folder: its spec's user stories as contracts, and its open tasks. */
async function readFeature(folder: string, id: string, options: ToolReadOptions): Promise<Feature> {
  const file = path.join(folder, 'spec.md')
  const text = await readInputFile(file, {limit: inputLimits.markdown})
  const tasks = await readOpenTasks(path.join(folder, 'tasks.md'), options.optionalTasks)
  const feature: Feature = {title: null, contracts: [], problems: [...tasks.problems], tasks}
  if (text === undefined) {
    feature.problems.push({file: folder, line: null, message: `Unexpected feature folder without spec.md, expected \`${id}/spec.md\` with user stories`})
    return feature
  }
  const {asStory, readStories} = await import('@verification-tiers/contracts/tools')
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
