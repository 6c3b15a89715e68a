import {readdir} from 'node:fs/promises'
import path from 'node:path'
import type {Contract, ContractField, ContractItem} from '@verification-tiers/contracts'
import {describeContractProblem} from '@verification-tiers/contracts/terms'
import {inputLimits, isSliceId, readInputFile, sliceIdRule} from '@verification-tiers/runtime'
import type {LoadedContract} from '../project.js'
import type {ProjectProblem} from '../problems.js'
import {readOpenTasks} from './tasks.js'
import type {ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/** A feature folder of spec-kit: a number, a dash, a name (`001-photo-albums`). */
const featureFolder = /^\d+-\S/

/** The priority a story heading ends with, left out of the contract's name. */
const trailingPriority = /\s*[(（][^()（）]*\bP\d+\s*[)）]\s*$/u

/** The folder of tiers' state files inside the project folder. */
const stateFolder = 'tiers'

/** The labels of a story's fields, when written in English; in another language the fields are found by their place in the template. */
const scenariosLabel = /acceptance|scenario/i
const independentTestLabel = /independent|test/i

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
    if (!entry.isDirectory()) {
      if (!/\.md$/i.test(name)) continue
      reading.problems.push({file: folder, line: null, message: 'Unexpected markdown file beside the feature folders, expected it inside a feature folder such as `001-name/`; tiers does not read it'})
      continue
    }
    if (!featureFolder.test(name) || !isSliceId(name)) {
      const why = featureFolder.test(name) ? `its name is no slice id (${sliceIdRule})` : 'expected a feature folder named `NNN-name` holding spec.md'
      reading.problems.push({file: folder, line: null, message: `Unexpected folder, ${why}; tiers does not read it`})
      continue
    }
    const feature = await readFeature(folder, name)
    reading.problems.push(...feature.problems)
    if (feature.contracts.length === 0) continue
    reading.contracts.push(...feature.contracts)
    reading.slices.push({
      id: name,
      name: feature.title ?? name,
      contracts: feature.contracts,
      missing: [],
      tier: options.defaultTier === 'auto' ? 'auto' : null,
      humanCheck: null,
      verification: null,
      retired: null,
      openTasks: feature.openTasks
    })
  }
  return reading
}

interface Feature {
  title: string | null
  contracts: LoadedContract[]
  problems: ProjectProblem[]
  openTasks: Awaited<ReturnType<typeof readOpenTasks>>['open']
}

/** One feature folder: its spec's user stories as contracts, and its open tasks. */
async function readFeature(folder: string, id: string): Promise<Feature> {
  const file = path.join(folder, 'spec.md')
  const text = await readInputFile(file, {limit: inputLimits.markdown})
  const tasks = await readOpenTasks(path.join(folder, 'tasks.md'))
  const feature: Feature = {title: null, contracts: [], problems: [...tasks.problems], openTasks: tasks.open}
  if (text === undefined) {
    feature.problems.push({file: folder, line: null, message: `Unexpected feature folder without spec.md, expected \`${id}/spec.md\` with user stories`})
    return feature
  }
  const {readStories} = await import('@verification-tiers/contracts/tools')
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

/**
 * A user story as a contract: its criteria the items of its acceptance
 * scenarios, its steps the text of its independent test, its tier its own
 * (`manual` is `verify`).
 */
function asStory(contract: Contract): Contract {
  const scenarios = findField(contract.fields, scenariosLabel, (field) => field.hasList)
  const scenariosAt = scenarios ? contract.fields.indexOf(scenarios) : -1
  const test = findField(contract.fields, independentTestLabel, (_, index) => index === scenariosAt - 1)
  const steps: ContractItem[] = []
  if (test && test !== scenarios) {
    if (test.value !== '') steps.push({text: test.value, position: test.valuePosition ?? test.position, check: null})
    else steps.push(...test.items, ...test.unread.map((unread) => ({text: unread.text, position: unread.position, check: null})))
  }
  const name = contract.name.replace(trailingPriority, '')
  const tier = contract.tier !== null && /^manual$/i.test(contract.tier) ? 'verify' : contract.tier
  return {
    ...contract,
    name,
    label: name,
    tier,
    effectiveTier: tier === 'auto' ? 'auto' : 'verify',
    criteria: scenarios ? scenarios.items : contract.criteria,
    steps
  }
}

/**
 * The field whose label matches `english`, else (for labels in another
 * language) the field at the place the template gives it.
 */
function findField(fields: readonly ContractField[], english: RegExp, atPlace: (field: ContractField, index: number) => boolean): ContractField | undefined {
  const unknown = fields.filter((field) => field.key === null || field.key === 'acceptanceCriteria' || field.key === 'steps')
  return unknown.find((field) => english.test(field.label)) ?? fields.filter((field, index) => field.key === null && atPlace(field, index)).at(-1)
}
