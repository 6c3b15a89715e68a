import {lstat, stat} from 'node:fs/promises'
import path from 'node:path'
import {defaultReadLimits, isSliceId, keptSliceIds, sliceIdRule} from '@verification-tiers/runtime'
import {openBudget} from '../budget.js'
import type {ReadBudget} from '../budget.js'
import type {ProjectProblem} from '../problems.js'
import {unlistedFolder, walkFiles} from '../walk.js'
import type {FolderEntry} from '../walk.js'
import {readCountedFile} from './read-file.js'
import type {OpenTask, ProjectTool, ToolReading, ToolReadOptions} from './types.js'

/** Where BMAD v6 writes its story files, in its output folder, unless its configuration names another. */
const storiesFolder = 'implementation-artifacts'

/** BMAD v6's configuration of its workflows, at the repository root: where `implementation_artifacts` (earlier `sprint_artifacts`) names the story folder. */
const v6Config = path.join('_bmad', 'bmm', 'config.yaml')

/** BMAD v4's configuration, in its installed `.bmad-core`: where `devStoryLocation` names the story folder. */
const v4Config = 'core-config.yaml'

/** How deep a v4 story folder is read: `docs/stories/epic/1/1.2.story.md` is two folders down. */
const v4Depth = 4

/** A review finding the workflow left open: `[Review][Patch]`, `[Review][Decision]`, `[AI-Review][High]`. */
const reviewItem = /^\[(?:AI-)?Review\]/i

/** The folder whose story files are read, or `null` with the problems that say why none is. */
interface StoryFolder {
  folder: string | null
  problems: ProjectProblem[]
}

/**
 * BMAD (v6): `_bmad-output/implementation-artifacts/<epic>-<story>-<slug>.md`,
 * or the folder `implementation_artifacts` names in `_bmad/bmm/config.yaml`.
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

  /** The story folder holding a story file or a spec; one that cannot be listed, or a configuration that cannot be read, makes it one, for the reader to name. */
  async recognises(dir) {
    // Recognising reads with the default limits: the settings are the reader's, once the tool is known.
    const budget = openBudget(dir, defaultReadLimits, 'tiers.json')
    const {folder, problems} = await v6StoryFolder(dir, budget)
    if (problems.length > 0) return true
    return folder !== null && holdsUnit(folder, budget)
  },

  async read(dir, options) {
    const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
    const {folder, problems} = await v6StoryFolder(dir, budget)
    if (folder === null) return {contracts: [], slices: [], problems}
    const unlisted = await unlistedFolder(folder)
    if (unlisted) return {contracts: [], slices: [], problems: [...problems, unlisted]}
    const reading: ToolReading = {contracts: [], slices: [], problems}
    // Its subfolders too: a story moved into one is still a story.
    const entries = await walkFiles(folder, reading.problems, {reads: isMarkdownName, depth: v4Depth, tooDeep: tooDeepStories})
    await readStories(entries, budget, options, reading, {specs: true})
    return reading
  }
}

/** What a story folder nested too deep for the walk is. */
const tooDeepStories = `Unexpected folder nested more than ${v4Depth} deep in the story folder, expected story files at most ${v4Depth} folders down; the folder is not read`

/** A markdown file's name, in any case (`.md`, `.MD`): a story renamed so is still read. */
const isMarkdownName = (name: string) => /\.md$/i.test(name)

/**
 * BMAD (v4): the method installed in `.bmad-core`, its stories in the
 * folder `devStoryLocation` of `.bmad-core/core-config.yaml` names
 * (`docs/stories` by default), its subfolders too. A story file (`# Story
 * 1.2: Title`, as `1.2.story.md` or `1.2.short-title.md`) is a slice and its
 * one contract, read as v6's are; its `## Status` is the workflow's word,
 * and its `## QA Results` no task. The folder's other files (indexes, epic
 * files, summaries) are not stories. Stories v6 reads too (its story folder
 * configured as the same) are left to v6: none is gated twice.
 */
export const bmadV4: ProjectTool = {
  name: 'bmad-v4',
  folder: '.bmad-core',

  /** A `.bmad-core` holding `core-config.yaml`: the method is installed, whether or not a story is written yet. One that cannot be looked in counts, for the reader to name. */
  async recognises(dir) {
    return lstat(path.join(dir, v4Config)).then(
      (info) => !info.isDirectory(),
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR'
    )
  },

  async read(dir, options) {
    const budget = openBudget(dir, options.limits ?? defaultReadLimits, 'tiers.json')
    const {folder, problems} = await v4StoryFolder(dir, budget)
    const reading: ToolReading = {contracts: [], slices: [], problems}
    if (folder === null) return reading
    const entries = await walkFiles(folder, reading.problems, {reads: isMarkdownName, depth: v4Depth, tooDeep: tooDeepStories})
    // A story v6 reads (its story folder configured as this one) is v6's.
    const v6 = path.join(path.dirname(dir), bmad.folder)
    const v6Folder = (await bmad.recognises(v6)) ? (await v6StoryFolder(v6, openBudget(dir, defaultReadLimits, 'tiers.json'))).folder : null
    const inV6 = (file: string) => v6Folder !== null && !path.relative(path.resolve(v6Folder), path.resolve(file)).startsWith('..')
    const own = entries.filter((entry) => !inV6(entry.path))
    await readStories(own, budget, options, reading, {specs: false})
    return reading
  }
}

/**
 * v6's story folder: `implementation_artifacts` (else `sprint_artifacts`)
 * of `_bmad/bmm/config.yaml` beside `dir`, with `{project-root}` and
 * `{output_folder}` put in, else `implementation-artifacts` in `dir`. A
 * folder configured outside the repository, and a configuration that
 * cannot be read, are a problem and no folder: tiers never reads another
 * folder in its place.
 */
async function v6StoryFolder(dir: string, budget: ReadBudget): Promise<StoryFolder> {
  const root = path.dirname(path.resolve(dir))
  const config = await readConfig(path.join(root, v6Config), budget)
  if (config.problems.length > 0) return {folder: null, problems: config.problems}
  const {values} = config
  const key = ['implementation_artifacts', 'sprint_artifacts'].find((each) => values?.has(each))
  if (values === null || key === undefined) return {folder: path.join(dir, storiesFolder), problems: []}
  const output = values.get('output_folder')
  const outputFolder = typeof output?.value === 'string' ? output.value.replaceAll('{project-root}', root) : path.join(root, bmad.folder)
  const found = inRepository(config.file, key, values.get(key)!, root, (value) =>
    value.replaceAll('{project-root}', root).replaceAll('{output_folder}', outputFolder)
  )
  // `dir` as given (relative or not), so that messages name the files as the other readers do.
  return found.folder === null ? found : {folder: path.join(dir, path.relative(path.join(root, bmad.folder), found.folder)), problems: []}
}

/** v4's story folder: `devStoryLocation` of `.bmad-core/core-config.yaml`, relative to the repository root (the folder holding `.bmad-core`), `docs/stories` by default. */
async function v4StoryFolder(dir: string, budget: ReadBudget): Promise<StoryFolder> {
  const root = path.dirname(dir)
  const config = await readConfig(path.join(dir, v4Config), budget)
  if (config.problems.length > 0) return {folder: null, problems: config.problems}
  const setting = config.values?.get('devStoryLocation')
  const found =
    setting === undefined
      ? {folder: path.join(root, 'docs', 'stories'), problems: []}
      : inRepository(config.file, 'devStoryLocation', setting, root, (value) => value)
  if (found.folder === null) return found
  const listed = await unlistedFolder(found.folder)
  if (listed) return {folder: null, problems: [listed]}
  const info = await stat(found.folder).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined))
  if (info?.isDirectory()) return found
  // BMAD makes the folder with its first story: before it (no slice has state yet), there is no story to read and nothing is wrong.
  if (info === null && (await keptSliceIds(dir)).length === 0) return {folder: null, problems: []}
  const where = setting === undefined ? {file: config.file, line: null} : {file: config.file, line: setting.line}
  const named =
    setting === undefined
      ? `no \`devStoryLocation\`, so the default ${path.join('docs', 'stories')}`
      : `\`devStoryLocation\` ${path.relative(root, found.folder)}`
  return {folder: null, problems: [{...where, message: `Unexpected ${named}, which is no folder, expected the folder of the story files; no story is read`}]}
}

/** A setting of a configuration file: its value and its line. */
interface Setting {
  value: unknown
  line: number | null
}

/**
 * The top-level settings of a YAML configuration file, `null` when there is
 * no file; a file that cannot be read, is not YAML or is not a mapping is
 * a problem naming it (and its line, where the parser gives one).
 */
async function readConfig(file: string, budget: ReadBudget): Promise<{file: string; values: Map<string, Setting> | null; problems: ProjectProblem[]}> {
  const problems: ProjectProblem[] = []
  const text = await readCountedFile(file, budget, problems)
  if (typeof text !== 'string') return {file, values: null, problems}
  const {isMap, isScalar, LineCounter, parseDocument} = await import('yaml')
  const lines = new LineCounter()
  const doc = parseDocument(text, {lineCounter: lines})
  const error = doc.errors[0]
  if (error) {
    const line = error.linePos?.[0].line ?? null
    return {
      file,
      values: null,
      problems: [
        {
          file,
          line,
          message: `Unexpected text that is not YAML (${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}), expected BMAD's settings; no story is read`
        }
      ]
    }
  }
  const values = new Map<string, Setting>()
  if (doc.contents === null) return {file, values, problems}
  if (!isMap(doc.contents))
    return {
      file,
      values: null,
      problems: [{file, line: 1, message: "Unexpected YAML that is no mapping, expected BMAD's settings as `key: value` lines; no story is read"}]
    }
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key)) continue
    const start = (pair.value as {range?: [number, number, number]} | null)?.range?.[0] ?? pair.key.range?.[0]
    values.set(String(pair.key.value), {
      value: isScalar(pair.value) ? pair.value.value : pair.value,
      line: start === undefined ? null : lines.linePos(start).line
    })
  }
  return {file, values, problems}
}

/** The folder a setting names, resolved by `resolve` against `root`; a setting that is no text, or names no folder inside `root` (`root` itself, or one outside), is a problem at its line. */
function inRepository(file: string, key: string, setting: Setting, root: string, resolve: (value: string) => string): StoryFolder {
  if (typeof setting.value !== 'string' || setting.value.trim() === '') {
    return {
      folder: null,
      problems: [
        {
          file,
          line: setting.line,
          message: `Unexpected \`${key}\` that is no folder name, expected the folder of the story files, relative to the repository; no story is read`
        }
      ]
    }
  }
  const folder = path.resolve(root, resolve(setting.value.trim()))
  const relative = path.relative(root, folder)
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return {
      folder: null,
      problems: [
        {
          file,
          line: setting.line,
          message: `Unexpected \`${key}\` ${setting.value.trim()}, which is no folder inside the repository ${root}, expected a folder in it; no story is read`
        }
      ]
    }
  }
  return {folder, problems: []}
}

/** Whether `folder` (or a subfolder) holds a story file, a file named as one, or a Build spec (one that cannot be listed counts, for the reader to name). */
async function holdsUnit(folder: string, budget: ReadBudget): Promise<boolean> {
  const {isBmadSpec, isBmadStory, isBmadStoryName} = await import('@verification-tiers/spec-tools')
  const refused: ProjectProblem[] = []
  const entries = await walkFiles(folder, refused, {reads: isMarkdownName, depth: v4Depth, tooDeep: tooDeepStories})
  if (refused.length > 0) return true
  for (const entry of entries) {
    if (entry.kind !== 'file' || !isMarkdownName(entry.name)) continue
    // A file named as a story is one for the reader to read, or to name when it reads as none.
    if (isBmadStoryName(entry.name)) return true
    const text = await readCountedFile(entry.path, budget, []).catch(() => null)
    if (typeof text === 'string' && (isBmadStory(text) || isBmadSpec(entry.name, text))) return true
  }
  return false
}

/**
 * Each story file of `entries` (and, with `specs`, each Build or quick-dev
 * spec) as a slice and its contract, added to `reading`. A story whose name
 * is no slice id, or the id of a story read before (in another folder), is
 * a problem naming it.
 */
async function readStories(
  entries: readonly FolderEntry[],
  budget: ReadBudget,
  options: ToolReadOptions,
  reading: ToolReading,
  {specs}: {specs: boolean}
): Promise<void> {
  const {bmadStoryNumber, hiddenStoryHeadings, isBmadCompanion, isBmadSpec, isBmadStoryName, readBmadSpec, readBmadStory} = await import(
    '@verification-tiers/spec-tools'
  )
  const {readTasks} = await import('./read-tasks.js')
  const read = new Map<string, string>()
  // Each file with the number its `# Story` heading gives (`null`: no story heading first), read once.
  const files: Array<{name: string; file: string; text: string; number: string | null; companion: boolean}> = []
  for (const {name, kind, path: file} of entries) {
    if (kind !== 'file' || !isMarkdownName(name)) continue
    const text = await readCountedFile(file, budget, reading.problems)
    if (typeof text !== 'string') continue
    const number = bmadStoryNumber(text)
    files.push({name, file, text, number, companion: number !== null && isBmadCompanion(text)})
  }
  // A story's companion (a decision document headed as its story) is no story beside the story of its number.
  const stories = new Set(files.filter(({number, companion}) => number !== null && !companion).map(({number}) => number))
  for (const {name, file, text, number, companion} of files) {
    if (companion && stories.has(number)) continue
    const spec = specs && number === null && isBmadSpec(name, text)
    if (!spec && number === null) {
      // A story heading markup hid (in a quote, after HTML) is named at its line; a file named as a story that reads as none is named too.
      const hidden = hiddenStoryHeadings(file, text)
      for (const problem of hidden) reading.problems.push(problem)
      if (hidden.length === 0 && isBmadStoryName(name)) {
        reading.problems.push({
          file,
          line: 1,
          message:
            'Unexpected story file whose first heading is no `# Story N.M: Title`, expected that heading first, as BMAD writes its stories; tiers does not read it'
        })
      }
      continue
    }
    const id = name.replace(/\.md$/i, '')
    if (!isSliceId(id)) {
      reading.problems.push({file, line: null, message: `Unexpected story file name, its name is no slice id (${sliceIdRule}); tiers does not read it`})
      continue
    }
    const twin = read.get(id)
    if (twin !== undefined) {
      reading.problems.push({
        file,
        line: null,
        message: `Unexpected story file named as ${twin}, expected one story file of each name: its name is its slice's; tiers does not read it`
      })
      continue
    }
    read.set(id, file)
    const story = (spec ? readBmadSpec : readBmadStory)(file, text, {slice: id, defaultTier: options.defaultTier})
    for (const problem of story.problems) reading.problems.push(problem)
    if (story.story === null) continue
    const inTasks = (line: number) => story.taskLines.some(([from, to]) => from <= line && line <= to)
    const openTasks: OpenTask[] = readTasks(file, text, story.tree)
      .filter((task) => !task.done && (inTasks(task.line) || reviewItem.test(task.text)))
      .map(({text: task, line}) => ({text: task, file, line}))
    reading.contracts.push(story.story)
    reading.slices.push({
      id,
      name: story.story.contract.label,
      contracts: [story.story],
      missing: [],
      tier: options.defaultTier === 'auto' ? 'auto' : null,
      humanCheck: null,
      verification: null,
      retired: null,
      openTasks,
      optionalTasks: []
    })
  }
}
