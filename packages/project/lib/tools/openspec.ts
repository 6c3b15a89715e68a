import type {Dirent} from 'node:fs'
import {readdir, stat} from 'node:fs/promises'
import path from 'node:path'
import {effectiveTier, isSliceId, sliceIdRule} from '@verification-tiers/contracts/gate-terms'
import {defaultReadLimits, inputLimits, readInputFile} from '@verification-tiers/runtime'
import {openBudget} from '../budget.js'
import type {ReadBudget} from '../budget.js'
import {ProjectError} from '../errors.js'
import type {LoadedContract} from '../project.js'
import type {ProjectProblem} from '../problems.js'
import {readCountedFile} from './read-file.js'
import {listFolder, unlistedFolder, walkFiles} from '../walk.js'
import type {DeltaRequirement} from '@verification-tiers/spec-tools'
import type {TaskList} from './read-tasks.js'
import type {ProjectTool, ToolReadOptions, ToolReading} from './types.js'

/** One active change as read: its slice, its delta requirements by section, its tasks. */
export interface OpenSpecChange {
  id: string
  /** The change folder. */
  dir: string
  requirements: Array<DeltaRequirement & {file: string; capability: string}>
  tasks: TaskList
}

/**
 * OpenSpec (`openspec/`): each active change (`changes/<id>/`, not
 * `changes/archive/`) is a slice; each `### Requirement:` its delta specs ADD
 * or MODIFY is a contract, its `#### Scenario:` blocks the criteria, its
 * `tasks.md` the open tasks. A REMOVED or RENAMED requirement is listed as a
 * contract of tier `auto` in no slice, its label saying it is not verified:
 * nothing is left to confirm of it, and a person still sees it.
 */
export const openspec: ProjectTool = {
  name: 'openspec',
  folder: 'openspec',
  recognises,
  async read(dir, options) {
    return (await readOpenSpec(dir, options)).reading
  },
  /** A change OpenSpec archived: `changes/archive/<id>` or `changes/archive/2026-05-01-<id>`. */
  async archived(dir, id) {
    const names = await folders(path.join(dir, 'changes', 'archive'))
    return names.some((name) => name === id || (/^\d{4}-\d{2}-\d{2}-/.test(name) && name.slice(11) === id))
  }
}

/**
 * Whether `dir` holds OpenSpec's files: `specs/` or `changes/`, with a
 * capability's `spec.md` of requirements, a change, `changes/archive/`, or
 * OpenSpec's `project.md`, `config.yaml` or `AGENTS.md`. What cannot be read
 * is never taken for no project: an `openspec` folder, or its `specs/` or
 * `changes/`, that cannot be listed, or a change that is a link or has a
 * name not in UTF-8, makes it one, for the reader to name.
 */
async function recognises(dir: string): Promise<boolean> {
  // Only a folder of OpenSpec's name: another tool's (`.kiro` holds `specs/`) is tried by this reader too.
  const named = path.basename(dir) === openspec.folder
  if (named && (await unlistable(dir))) return true
  const specs = await isDirectory(path.join(dir, 'specs'))
  const changes = await isDirectory(path.join(dir, 'changes'))
  if (!specs && !changes) return false
  if (named && ((specs && (await unlistable(path.join(dir, 'specs')))) || (changes && (await unlistable(path.join(dir, 'changes')))))) return true
  for (const name of ['project.md', 'config.yaml', 'AGENTS.md']) if (await isFile(path.join(dir, name))) return true
  if (changes && (await isDirectory(path.join(dir, 'changes', 'archive')))) return true
  // A capability's spec.md holds `### Requirement:` headings: spec-kit's `specs/<feature>/spec.md` holds user stories.
  for (const capability of specs ? await folders(path.join(dir, 'specs')) : []) {
    const spec = await readMarkdown(path.join(dir, 'specs', capability, 'spec.md'))
    if (spec !== undefined && /^#{1,6}[ \t]+Requirement[ \t]*[:：]/im.test(spec)) return true
  }
  const refused: ProjectProblem[] = []
  const entries = changes ? await listFolder(path.join(dir, 'changes'), refused, {reads: () => false}) : []
  if (named && refused.length > 0) return true
  for (const change of entries) {
    if (change.kind !== 'folder') continue
    for (const part of ['proposal.md', 'tasks.md', 'specs']) if (await exists(path.join(change.path, part))) return true
  }
  return false
}

/**
 * Read an OpenSpec folder: the reading the gate takes, and each active
 * change as read (for figures and for `tiers contracts`). A folder with
 * neither `specs/` nor `changes/` is a `ProjectError`.
 */
export async function readOpenSpec(dir: string, options: ToolReadOptions): Promise<{reading: ToolReading; changes: OpenSpecChange[]}> {
  const changesDir = path.join(dir, 'changes')
  const reading: ToolReading = {contracts: [], slices: [], problems: []}
  const changes: OpenSpecChange[] = []
  // A folder that cannot be listed is a problem naming it, not a folder without specs/ or changes/.
  const unlisted = await unlistedFolder(dir)
  if (unlisted) {
    reading.problems.push(unlisted)
    return {reading, changes}
  }
  if (!(await isDirectory(changesDir)) && !(await isDirectory(path.join(dir, 'specs')))) {
    throw new ProjectError(
      dir,
      'Unexpected OpenSpec folder without specs/ or changes/, expected openspec/changes/<change>/ with proposal.md, tasks.md and specs/<capability>/spec.md'
    )
  }
  const readers = await loadReaders()
  const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
  // A change is a folder: one that cannot be listed, linked or named is a problem; files beside the changes are not read.
  for (const entry of await listFolder(changesDir, reading.problems, {reads: () => false})) {
    if (entry.name === 'archive') continue
    // A file beside the change folders (a plan of their order, a readme) is no change: OpenSpec makes changes of folders only.
    if (entry.kind !== 'folder') continue
    const change = await readChange(entry.path, entry.name, options, reading, readers, budget)
    changes.push(change)
  }
  return {reading, changes}
}

/** The markdown readers, loaded when a folder is read (finding the project's folder needs none of them). */
async function loadReaders() {
  const [tools, tasks, {toString}] = await Promise.all([import('@verification-tiers/spec-tools'), import('./read-tasks.js'), import('mdast-util-to-string')])
  return {...tools, ...tasks, toString}
}

type Readers = Awaited<ReturnType<typeof loadReaders>>

/** One change into the reading: its slice (when its name is a slice id), its contracts, its problems. */
async function readChange(
  dir: string,
  id: string,
  {defaultTier, optionalTasks}: ToolReadOptions,
  reading: ToolReading,
  readers: Readers,
  budget: ReadBudget
): Promise<OpenSpecChange> {
  const {parseMarkdownText, readDeltaSpec, readTasks, statedTier, taskList, tierStatements, toContract, toString, verified} = readers
  const problems = reading.problems
  const validId = isSliceId(id)
  if (!validId) problems.push({file: dir, line: null, message: `Unexpected change folder name ${JSON.stringify(id)}, expected ${sliceIdRule}`})
  const change: OpenSpecChange = {id, dir, requirements: [], tasks: {total: 0, checked: 0, open: [], optional: []}}
  // A change folder that cannot be listed cannot be read: one problem naming it, not one for each of its files.
  const unlisted = await unlistedFolder(dir)
  if (unlisted) {
    problems.push(unlisted)
    return change
  }

  const proposalFile = path.join(dir, 'proposal.md')
  const proposal = (await readCountedFile(proposalFile, budget, problems)) ?? undefined
  const proposalTree = proposal === undefined ? null : parseMarkdownText(proposal)
  const title = proposalTree?.children.find((node) => node.type === 'heading' && node.depth === 1)
  // `# Change: Add X` names the change `Add X`.
  const name = title
    ? toString(title)
        .replace(/^\s*Change\s*[:：]\s*/i, '')
        .trim() || id
    : id
  const changeTier = proposalTree ? statedTier(proposalFile, tierStatements(proposal!, proposalTree), `change ${id}`, problems) : null

  const specsDir = path.join(dir, 'specs')
  const files = await markdownFiles(specsDir, problems)
  const contracts: LoadedContract[] = []
  const labels = new Map<string, string>()
  for (const file of files) {
    const text = (await readCountedFile(file, budget, problems)) ?? undefined
    if (text === undefined) continue
    const delta = readDeltaSpec(file, text, parseMarkdownText(text))
    const fileProblems = delta.problems
    const capability = path.relative(specsDir, path.dirname(file)).split(path.sep).join('/') || path.basename(file, path.extname(file))
    for (const requirement of delta.requirements) {
      change.requirements.push({...requirement, file, capability})
      const contract = toContract(requirement, capability, id, file, fileProblems)
      reading.contracts.push({contract, file, source: text.slice(requirement.position.start.offset ?? 0, requirement.position.end.offset ?? text.length)})
      if (!verified(requirement.section)) continue
      // The gate knows a contract by its label: a second one of a label would share the first one's approval.
      const line = requirement.headingPosition.start.line
      const first = labels.get(contract.label)
      if (first === undefined) labels.set(contract.label, `${file}:${line}`)
      else
        fileProblems.push({
          file,
          line,
          message: `Unexpected second requirement ${JSON.stringify(requirement.name)} of ${capability} in change ${id} (the first at ${first}), expected each requirement once in a change`
        })
      contracts.push(reading.contracts.at(-1)!)
    }
    // In the order of the file, as a person reads it.
    for (const problem of fileProblems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))) problems.push(problem)
  }

  const tasksFile = path.join(dir, 'tasks.md')
  const tasks = (await readCountedFile(tasksFile, budget, problems)) ?? undefined
  if (tasks !== undefined) change.tasks = taskList(readTasks(tasksFile, tasks), optionalTasks)

  if (validId) {
    const tier = changeTier !== null ? effectiveTier(changeTier) : defaultTier === 'verify' ? null : defaultTier
    reading.slices.push({
      id,
      name,
      contracts,
      missing: [],
      tier,
      humanCheck: null,
      verification: null,
      retired: null,
      openTasks: change.tasks.open,
      optionalTasks: change.tasks.optional,
      // A tier the proposal states is written there; the settings’ default is placed by the loader.
      ...(changeTier === null ? {} : {statedAt: proposalFile})
    })
  }
  return change
}

/**
 * The markdown files under a change's `specs/`, sorted, at any depth down to
 * 8 folders; what the walk cannot list, name or reach is a problem (see
 * `walk.ts`), and so is a file of another kind there (a FIFO, a socket).
 */
async function markdownFiles(folder: string, problems: ProjectProblem[]): Promise<string[]> {
  const entries = await walkFiles(folder, problems, {
    reads: (name) => /\.md$/i.test(name),
    depth: 8,
    tooDeep: 'Unexpected folder nested more than 8 deep in specs/, expected specs/<capability>/spec.md'
  })
  const files: string[] = []
  for (const entry of entries) {
    if (entry.kind === 'file') files.push(entry.path)
    // Another kind of entry may hold delta specs the gate would not read: named, never skipped.
    else
      problems.push({
        file: entry.path,
        line: null,
        message: 'Unexpected entry in a change’s specs/ that is neither a folder nor a file, expected delta specs specs/<capability>/spec.md'
      })
  }
  return files
}

/** A markdown file of the folder, `undefined` when there is none or it cannot be read: for recognising the folder, which names no problem. */
async function readMarkdown(file: string): Promise<string | undefined> {
  return readInputFile(file, {limit: inputLimits.markdown}).catch(() => undefined)
}

/** Whether `folder` is there but cannot be listed. */
async function unlistable(folder: string): Promise<boolean> {
  return (await unlistedFolder(folder)) !== null
}

/** The folders a folder holds, none when it cannot be listed: for recognising the folder, which reads nothing of them, in no order. */
async function folders(folder: string): Promise<string[]> {
  const entries = await readdir(folder, {withFileTypes: true}).catch(() => [] as Dirent[])
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null
}

async function isDirectory(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isDirectory() ?? false
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false
}
