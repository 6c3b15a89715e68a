import path from 'node:path'
import {defaultReadLimits, isSliceId, sliceIdRule} from '@verification-tiers/runtime'
import {openBudget} from '../budget.js'
import type {ProjectProblem} from '../problems.js'
import {listFolder, unlistedFolder} from '../walk.js'
import {readCountedFile} from './read-file.js'
import type {OpenTask, ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/** Where BMAD v6 writes its story files, in its output folder. */
const storiesFolder = 'implementation-artifacts'

/** A review finding the workflow left open: `[Review][Patch]`, `[Review][Decision]`, `[AI-Review][High]`. */
const reviewItem = /^\[(?:AI-)?Review\]/i

/**
 * BMAD (v6): `_bmad-output/implementation-artifacts/<epic>-<story>-<slug>.md`.
 * Each story file (its first heading `# Story 1.2: Title`) is a slice and
 * its one contract, the items of its `## Acceptance Criteria` the
 * criteria. The unticked boxes of its `## Tasks / Subtasks` (subtasks and
 * review findings included) and any open `[Review]` finding are its open
 * tasks. Its `Status:` is what the workflow says, never evidence. The
 * folder's other files (specs, `sprint-status.yaml`, `deferred-work.md`,
 * retrospectives) are not stories.
 */
export const bmad: ProjectTool = {
  name: 'bmad',
  folder: '_bmad-output',

  /** An `implementation-artifacts/` folder holding a story file; one that cannot be listed makes it one, for the reader to name. */
  async recognises(dir) {
    const {isBmadStory} = await import('@verification-tiers/contracts/tools')
    const refused: ProjectProblem[] = []
    const entries = await listFolder(path.join(dir, storiesFolder), refused, {reads: (name) => name.endsWith('.md')})
    if (refused.length > 0) return true
    // Recognising reads with the default limits: the settings are the reader's, once the tool is known.
    const budget = openBudget(dir, defaultReadLimits, 'tiers.json')
    for (const entry of entries) {
      if (entry.kind !== 'file' || !entry.name.endsWith('.md')) continue
      const text = await readCountedFile(entry.path, budget, []).catch(() => null)
      if (typeof text === 'string' && isBmadStory(text)) return true
    }
    return false
  },

  read: readBmad
}

async function readBmad(dir: string, options: ToolReadOptions): Promise<ToolReading> {
  const {isBmadSpec, isBmadStory, readBmadSpec, readBmadStory} = await import('@verification-tiers/contracts/tools')
  const {readTasks} = await import('./read-tasks.js')
  const reading: ToolReading = {contracts: [], slices: [], problems: []}
  const folder = path.join(dir, storiesFolder)
  const unlisted = await unlistedFolder(folder)
  if (unlisted) return {...reading, problems: [unlisted]}
  const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
  const entries = await listFolder(folder, reading.problems, {reads: (name) => name.endsWith('.md')})
  for (const {name, kind, path: file} of entries) {
    if (kind !== 'file' || !name.endsWith('.md')) continue
    const text = await readCountedFile(file, budget, reading.problems)
    if (typeof text !== 'string') continue
    const spec = !isBmadStory(text) && isBmadSpec(name, text)
    if (!spec && !isBmadStory(text)) continue
    const id = name.replace(/\.md$/, '')
    if (!isSliceId(id)) {
      reading.problems.push({file, line: null, message: `Unexpected story file name, its name is no slice id (${sliceIdRule}); tiers does not read it`})
      continue
    }
    const read = (spec ? readBmadSpec : readBmadStory)(file, text, {slice: id, defaultTier: options.defaultTier})
    for (const problem of read.problems) reading.problems.push(problem)
    if (read.story === null) continue
    const inTasks = (line: number) => read.taskLines.some(([from, to]) => from <= line && line <= to)
    const openTasks: OpenTask[] = readTasks(file, text)
      .filter((task) => !task.done && (inTasks(task.line) || reviewItem.test(task.text)))
      .map(({text: task, line}) => ({text: task, file, line}))
    reading.contracts.push(read.story)
    reading.slices.push({
      id,
      name: read.story.contract.label,
      contracts: [read.story],
      missing: [],
      tier: options.defaultTier === 'auto' ? 'auto' : null,
      humanCheck: null,
      verification: null,
      retired: null,
      openTasks,
      optionalTasks: []
    })
  }
  return reading
}
