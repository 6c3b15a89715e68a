import {readdir, stat} from 'node:fs/promises'
import path from 'node:path'
import {effectiveTier, isSliceId, sliceIdRule} from '@verification-tiers/contracts/gate-terms'
import {inputLimits, readInputFile} from '@verification-tiers/runtime'
import {ProjectError} from '../errors.js'
import type {LoadedContract} from '../project.js'
import type {ProjectProblem} from '../problems.js'
import type {DeltaRequirement} from '@verification-tiers/contracts/tools'
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
  }
}

/** Whether `dir` holds OpenSpec's files: `specs/` or `changes/`, with a capability's `spec.md` of requirements, a change, `changes/archive/`, or OpenSpec's `project.md`, `config.yaml` or `AGENTS.md`. */
async function recognises(dir: string): Promise<boolean> {
  const specs = await isDirectory(path.join(dir, 'specs'))
  const changes = await isDirectory(path.join(dir, 'changes'))
  if (!specs && !changes) return false
  for (const name of ['project.md', 'config.yaml', 'AGENTS.md']) if (await isFile(path.join(dir, name))) return true
  if (changes && (await isDirectory(path.join(dir, 'changes', 'archive')))) return true
  // A capability's spec.md holds `### Requirement:` headings: spec-kit's `specs/<feature>/spec.md` holds user stories.
  for (const capability of specs ? await folders(path.join(dir, 'specs')) : []) {
    const spec = await readMarkdown(path.join(dir, 'specs', capability, 'spec.md')).catch(() => undefined)
    if (spec !== undefined && /^#{1,6}[ \t]+Requirement[ \t]*[:：]/im.test(spec)) return true
  }
  for (const change of changes ? await folders(path.join(dir, 'changes')) : []) {
    for (const part of ['proposal.md', 'tasks.md', 'specs']) if (await exists(path.join(dir, 'changes', change, part))) return true
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
  if (!(await isDirectory(changesDir)) && !(await isDirectory(path.join(dir, 'specs')))) {
    throw new ProjectError(dir, 'Unexpected OpenSpec folder without specs/ or changes/, expected openspec/changes/<change>/ with proposal.md, tasks.md and specs/<capability>/spec.md')
  }
  const reading: ToolReading = {contracts: [], slices: [], problems: []}
  const changes: OpenSpecChange[] = []
  const readers = await loadReaders()
  for (const entry of await sortedEntries(changesDir, reading.problems)) {
    const full = path.join(changesDir, entry.name)
    if (entry.name.startsWith('.') || entry.name === 'archive') continue
    // A file beside the change folders (a plan of their order, a readme) is no change: OpenSpec makes changes of folders only.
    if (!entry.isDirectory()) continue
    const change = await readChange(full, entry.name, options, reading, readers)
    changes.push(change)
  }
  return {reading, changes}
}

/** The markdown readers, loaded when a folder is read (finding the project's folder needs none of them). */
async function loadReaders() {
  const [tools, tasks, {toString}] = await Promise.all([import('@verification-tiers/contracts/tools'), import('./read-tasks.js'), import('mdast-util-to-string')])
  return {...tools, ...tasks, toString}
}

type Readers = Awaited<ReturnType<typeof loadReaders>>

/** One change into the reading: its slice (when its name is a slice id), its contracts, its problems. */
async function readChange(dir: string, id: string, {defaultTier, optionalTasks}: ToolReadOptions, reading: ToolReading, readers: Readers): Promise<OpenSpecChange> {
  const {parseMarkdownText, readDeltaSpec, readTasks, statedTier, taskList, tierStatements, toContract, toString, verified} = readers
  const problems = reading.problems
  const validId = isSliceId(id)
  if (!validId) problems.push({file: dir, line: null, message: `Unexpected change folder name ${JSON.stringify(id)}, expected ${sliceIdRule}`})

  const proposalFile = path.join(dir, 'proposal.md')
  const proposal = await readMarkdown(proposalFile)
  const proposalTree = proposal === undefined ? null : parseMarkdownText(proposal)
  const title = proposalTree?.children.find((node) => node.type === 'heading' && node.depth === 1)
  // `# Change: Add X` names the change `Add X`.
  const name = title ? toString(title).replace(/^\s*Change\s*[:：]\s*/i, '').trim() || id : id
  const changeTier = proposalTree ? statedTier(proposalFile, tierStatements(proposal!, proposalTree), `change ${id}`, problems) : null

  const change: OpenSpecChange = {id, dir, requirements: [], tasks: {total: 0, checked: 0, open: [], optional: []}}
  const specsDir = path.join(dir, 'specs')
  const files = await markdownFiles(specsDir, problems)
  const contracts: LoadedContract[] = []
  const labels = new Map<string, string>()
  for (const file of files) {
    const text = (await readMarkdown(file)) ?? ''
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
      else fileProblems.push({file, line, message: `Unexpected second requirement ${JSON.stringify(requirement.name)} of ${capability} in change ${id} (the first at ${first}), expected each requirement once in a change`})
      contracts.push(reading.contracts.at(-1)!)
    }
    // In the order of the file, as a person reads it.
    for (const problem of fileProblems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))) problems.push(problem)
  }

  const tasksFile = path.join(dir, 'tasks.md')
  const tasks = await readMarkdown(tasksFile)
  if (tasks !== undefined) change.tasks = taskList(readTasks(tasksFile, tasks), optionalTasks)

  if (validId) {
    const tier = changeTier !== null ? effectiveTier(changeTier) : defaultTier === 'verify' ? null : defaultTier
    reading.slices.push({id, name, contracts, missing: [], tier, humanCheck: null, verification: null, retired: null, openTasks: change.tasks.open, optionalTasks: change.tasks.optional})
  }
  return change
}

/** The markdown files under a change's `specs/`, sorted, at any depth; a file of another kind there is a problem. */
async function markdownFiles(folder: string, problems: ProjectProblem[], depth = 0): Promise<string[]> {
  const files: string[] = []
  for (const entry of await sortedEntries(folder, problems)) {
    if (entry.name.startsWith('.')) continue
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) {
      if (depth < 8) for (const file of await markdownFiles(full, problems, depth + 1)) files.push(file)
      else problems.push({file: full, line: null, message: 'Unexpected folder nested more than 8 deep in specs/, expected specs/<capability>/spec.md'})
    } else if (/\.md$/i.test(entry.name) && entry.isFile()) {
      files.push(full)
    } else if (!entry.isFile()) {
      // A link or another kind of entry may hold delta specs the gate would not read: named, never skipped.
      problems.push({file: full, line: null, message: 'Unexpected entry in a change’s specs/ that is neither a folder nor a file (a symbolic link?), expected delta specs specs/<capability>/spec.md'})
    }
  }
  return files
}

function readMarkdown(file: string): Promise<string | undefined> {
  return readInputFile(file, {limit: inputLimits.markdown})
}

/**
 * A folder's entries by name; none when it does not exist. One that cannot
 * be listed is a problem naming it, given `problems`: its changes or delta
 * specs are never taken for none.
 */
async function sortedEntries(folder: string, problems?: ProjectProblem[]) {
  const entries = await readdir(folder, {withFileTypes: true}).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') problems?.push({file: folder, line: null, message: `Unexpected folder that cannot be listed (${error.code ?? error.message}), expected a folder tiers can read`})
    return []
  })
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

async function folders(folder: string): Promise<string[]> {
  return (await sortedEntries(folder)).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
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
