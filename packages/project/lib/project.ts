import {stat} from 'node:fs/promises'
import path from 'node:path'
import markdownExtensions from 'markdown-extensions'
import type {Contract, Tier} from '@verification-tiers/contracts'
import {contractKey, describeContractProblem} from '@verification-tiers/contracts/gate-terms'
import {
  contractTier,
  hashContracts,
  inputLimits,
  isSliceId,
  jsonPlace,
  parseJsonText,
  projectReadLimits,
  readInputFile,
  readProjectConfig,
  resolveSlice,
  sliceIdRule,
  keptSliceIds,
  slicePins
} from '@verification-tiers/runtime'
import type {GateContext, ProjectConfig, ResolvedSlice, SliceInput} from '@verification-tiers/runtime'
import {openBudget} from './budget.js'
import type {ReadBudget} from './budget.js'
import {hashContractText, openCache} from './cache.js'
import type {ContractCache, Warn} from './cache.js'
import {checkSliceId, graphNames, indexContracts, jsonGraph, matchSlice, readGraph as readFolderGraph} from '@verification-tiers/graph'
import type {ContractIndex, FolderGraph} from '@verification-tiers/graph'
import type {ContractReader} from './contract-reader.js'
import {ProjectError, UserError} from './errors.js'
import type {ProjectProblem} from './problems.js'
import type {SliceRecord} from './records.js'
import {greenlight, toolFor} from './tools/index.js'
import {unlistedFolder, walkFiles} from './walk.js'
import type {OpenTask, OptionalTasks, ProjectTool, ToolReading} from './tools/index.js'

/** A contract with the file it is in and its markdown as written. */
export interface LoadedContract {
  contract: Contract
  /** Path as messages show it. */
  file: string
  source: string
}

/** A slice of the project: from its graph, or from the contracts’ Slice fields and slice headings. */
export interface ProjectSlice {
  id: string
  name: string
  contracts: LoadedContract[]
  /** Contracts the graph lists (by id or name) that no contract file defines, as the graph writes them. */
  missing: string[]
  /** The tier the graph states for the slice, taken by its contracts that state none. */
  tier: Tier | null
  /** What the graph asks a person to check for the slice itself (`Human check: …`), `null` when nothing. */
  humanCheck: string | null
  /** What the graph says the slice’s tests prove, `null` when nothing. */
  verification: string | null
  /** Why the slice’s human check was retired (it asks no one), `null` when it was not. */
  retired: string | null
  /** The unticked tasks of the slice’s `tasks.md` (a tool’s): while any is open, the slice is not ready for its checkpoint. */
  openTasks: OpenTask[]
  /** The unticked optional tasks (Kiro’s `- [ ]*`) that do not hold the slice: shown, never dropped. */
  optionalTasks: OpenTask[]
  /** What the tool's workflow recorded of a person's answers (GSD's UAT files): shown beside the checks, never an answer to the gate; absent when none. */
  records?: SliceRecord[]
  /**
   * Where what the project states for the slice itself (its tier, its human
   * check) is written, `file:line` or `file`: its graph entry, or a tool’s
   * `tiers.json` whose default tier it takes; absent or `null` when unknown.
   */
  statedAt?: string | null
}

/** A verification-tier project folder: `.greenlight`, or a spec-driven tool’s (`specs`, `openspec`, `.kiro`). */
export interface Project {
  dir: string
  /** The tool whose files these are: `greenlight`, `spec-kit`, `openspec`, `kiro`. */
  tool: string
  config: ProjectConfig
  threshold: number
  contracts: LoadedContract[]
  slices: ProjectSlice[]
  /** Where the slices came from: Greenlight’s graph or contracts, else the tool’s name (its folders are its slices). */
  slicesFrom: 'GRAPH.json' | 'GRAPH.md' | 'contracts' | (string & {})
  /** What could not be read, matched or proven, each with its file and line; the gate passes nothing while any is here. */
  problems: ProjectProblem[]
  /** What the reading noticed that changes nothing of the gate (the contracts cache cannot be written, a contract placed by its own Slice field), one line each, for the program to show. */
  warnings: string[]
}

/** How a project is loaded. */
export interface LoadOptions {
  /**
   * What a graph that cannot be read does: `throw` its `ProjectError` (the
   * default, so the gate stops), or become a problem of a project read
   * without slices (for a command that shows what was read).
   */
  graphError?: 'throw' | 'problem'
  /**
   * Whether the contracts cache of the user's cache folder is used (the
   * default) or every file is read again (`false`, as `TIERS_NO_CACHE` does):
   * the merge gate reads everything, as the agent can write the cache too.
   */
  cache?: boolean
}

/**
 * Read the project: `config.json`, `GRAPH.json` (else `GRAPH.md`), then
 * `CONTRACTS.md` and every markdown file under `contracts/`, each optional
 * but contracts. Each is read as every input is (`readInputFile`): a regular
 * file of UTF-8, each markdown file of at most 1 MiB, and 4 MiB of them and
 * the graph in all (`limits` of `config.json` raises both: `openBudget`).
 * The graph is read first, so a heading it names is read as a contract.
 * What the walk of `contracts/` cannot list, name or reach (a folder that
 * cannot be listed, a name not in UTF-8, a symbolic link, a folder more than
 * 8 deep) is a problem naming it (`walk.ts`); a project folder that cannot
 * be listed is a `ProjectError`.
 *
 * A folder with no contracts is a problem naming it (or the lines that look
 * like contracts but were not read): a project whose contracts the reader
 * cannot see must never pass as no project.
 */
export async function loadProject(dir: string, {graphError = 'throw', cache: useCache = true}: LoadOptions = {}): Promise<Project> {
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new UserError(`${dir}: no such project folder, expected \`--dir <folder>\` holding CONTRACTS.md`)
  // A project folder that cannot be listed is named as such, not by the first of its files that cannot be opened.
  const unlisted = await unlistedFolder(dir)
  if (unlisted) throw new ProjectError(dir, unlisted.message)
  const tool = await toolFor(dir)
  if (tool) return loadToolProject(dir, tool)
  const {config, threshold} = await readProjectConfig(path.join(dir, 'config.json'))
  const budget = openBudget(dir, projectReadLimits(config), 'config.json')
  const unreadGraph: ProjectProblem[] = []
  // One cache and one parse worker for the run: the graph and the contract files each skip their parse when unchanged.
  const warnings: string[] = []
  const warn: Warn = (message) => void warnings.push(message)
  const cache = openCache(warn, {use: useCache})
  const parser = lazyReader()
  let graph: FolderGraph | null
  let loaded: Awaited<ReturnType<typeof loadContracts>>
  try {
    graph = await readGraph(dir, cache, parser, budget).catch((error: unknown) => {
      if (graphError === 'throw' || !(error instanceof ProjectError)) throw error
      unreadGraph.push(problemOf(error))
      return null
    })
    loaded = await loadContracts(dir, cache, parser, budget, graph ? graphNames(graph) : [])
  } finally {
    await parser.close()
    // Kept even when a file ran out of parse time: the next run does not parse again what this one read.
    await cache.save()
  }
  const {contracts, problems: fileProblems} = loaded
  // A folder of contract files with none read is a problem, beside the lines that say why: never no project.
  const unread: ProjectProblem[] =
    contracts.length === 0 && !fileProblems.some((problem) => problem.line !== null)
      ? [
          {
            file: dir,
            line: null,
            message:
              'Unexpected project folder without contracts that tiers can read, expected CONTRACTS.md or contracts/*.md with contract headings such as `### C-01: Name`'
          }
        ]
      : []
  const matched = graph ? slicesFromGraph(graph, contracts, warn) : slicesFromContracts(contracts)
  const problems = [...unreadGraph, ...unread, ...(graph?.problems ?? []), ...fileProblems, ...matched.problems]
  return {dir, tool: greenlight.name, config, threshold, contracts, slices: matched.slices, slicesFrom: graph?.from ?? 'contracts', problems, warnings}
}

/** The settings file of a tool’s folder (`config.json` is Greenlight’s): the same settings, and the tier of a contract that states none. */
export const toolConfigFile = 'tiers.json'

/**
 * A folder of another spec-driven tool, read by its reader; its settings
 * from `tiers.json` (optional), whose `verification.default` is the tier of
 * a contract that states none (`verify` unless it says `auto`).
 */
async function loadToolProject(dir: string, tool: ProjectTool): Promise<Project> {
  const file = path.join(dir, toolConfigFile)
  const {config, threshold} = await readProjectConfig(file, 'tiers.json')
  const defaultTier = defaultTierOf(config)
  const options = {defaultTier, optionalTasks: optionalTasksOf(config), limits: projectReadLimits(config)}
  // Read in the parse worker, under the deadline of a load's parses, as Greenlight's contract files are: some markdown takes the parser minutes.
  const parser = lazyReader()
  let reading: ToolReading
  try {
    reading = await (await parser.get()).readTool(tool.name, dir, options)
  } finally {
    await parser.close()
  }
  // A slice on the settings’ default tier takes it from there: that is where a change of it is shown.
  if (defaultTier === 'auto') {
    const statedAt = await settingPlace(file, ['verification', 'default'])
    for (const slice of reading.slices) if (slice.tier === 'auto' && slice.statedAt === undefined) slice.statedAt = statedAt
  }
  const problems = [...reading.problems, ...caseTwins(dir, reading.slices)]
  if (reading.slices.length === 0 && problems.length === 0) for (const problem of await vanishedUnits(dir, tool)) problems.push(problem)
  return {dir, tool: tool.name, config, threshold, contracts: reading.contracts, slices: reading.slices, slicesFrom: tool.name, problems, warnings: []}
}

/**
 * A tool folder that reads no slice while the gate keeps the state of some
 * (`tiers/<slice>.json`) the tool did not archive: its units were moved,
 * deleted or pointed away from (a story folder set to an empty one,
 * `phases/` renamed). One problem naming them, so that work never passes as
 * no work.
 */
async function vanishedUnits(dir: string, tool: ProjectTool): Promise<ProjectProblem[]> {
  const kept = await keptSliceIds(dir)
  // Units the tool archived as shipped work (GSD's phases moved with their milestone) are gone, not vanished.
  const ids: string[] = []
  for (const id of kept) if (!(await tool.archived?.(dir, id))) ids.push(id)
  if (ids.length === 0) return []
  const shown = ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ')
  return [
    {
      file: dir,
      line: null,
      message: `Unexpected ${tool.name} folder without a slice while the gate keeps the state of ${ids.length} (${shown}), expected their units where ${tool.name} writes them: moved, deleted or pointed away from, they are not done`
    }
  ]
}

/**
 * Slices whose ids differ only in case (`001-Seeds`, `001-seeds`: two
 * folders on a file system that tells them apart): tiers knows a slice by
 * its id in any case and keeps one state for it, so an answer to one would
 * land on the other. Each pair is a problem naming both.
 */
function caseTwins(dir: string, slices: readonly ProjectSlice[]): ProjectProblem[] {
  const first = new Map<string, string>()
  const problems: ProjectProblem[] = []
  for (const {id} of slices) {
    const folded = id.toLowerCase()
    const twin = first.get(folded)
    if (twin === undefined) first.set(folded, id)
    else
      problems.push({
        file: dir,
        line: null,
        message: `Unexpected slices ${twin} and ${id}, whose names differ only in case, expected names that differ otherwise: tiers keeps one state and one answer for both`
      })
  }
  return problems
}

/** `file:line` of the value at `at` in a settings file that was read, or the deepest value on the way. */
async function settingPlace(file: string, at: readonly string[]): Promise<string> {
  const text = await readInputFile(file, {limit: inputLimits.json})
  return text === undefined ? file : `${file}:${jsonPlace(text, at).line}`
}

/** `verification.default` of a tool’s settings (checked by their schema): `auto`, else `verify` (`manual` reads as `verify`). */
function defaultTierOf(config: ProjectConfig): Tier {
  const verification = (config as {verification?: unknown}).verification
  const value = typeof verification === 'object' && verification !== null ? (verification as {default?: unknown}).default : verification
  return value === 'auto' ? 'auto' : 'verify'
}

/** `tasks.optional` of a tool’s settings (checked by their schema): `hold`, or `show` (the default). */
function optionalTasksOf(config: ProjectConfig): OptionalTasks {
  return (config as {tasks?: {optional?: unknown}}).tasks?.optional === 'hold' ? 'hold' : 'show'
}

/** A `ProjectError` as a problem: its file, its line when it names one, and its reason. */
function problemOf(error: ProjectError): ProjectProblem {
  const place = /^(.*):(\d+)$/.exec(error.file)
  return place ? {file: place[1], line: Number(place[2]), message: error.reason} : {file: error.file, line: null, message: error.reason}
}

/**
 * The parse worker of one load: started on the first file the cache does not
 * have, for the graph and the contract files alike, under two deadlines, each
 * file's and the load's (`contract-reader.ts`); what was read before one ran
 * out is kept in the cache all the same.
 */
interface LazyReader {
  get: () => Promise<ContractReader>
  close: () => Promise<void>
}

function lazyReader(): LazyReader {
  let reader: Promise<ContractReader> | undefined
  return {
    get: () => (reader ??= import('./contract-reader.js').then(({openContractReader}) => openContractReader())),
    close: async () => {
      await (await reader?.catch(() => undefined))?.close()
    }
  }
}

/** The project’s slice graph: `GRAPH.json`, else `GRAPH.md`, else none; each read as every input is, and counted in the project’s total. */
function readGraph(dir: string, cache: ContractCache, parser: LazyReader, budget: ReadBudget): Promise<FolderGraph | null> {
  return readFolderGraph(dir, {
    readFile: async (file) => {
      if (!file.endsWith('.json')) return budget.read(file)
      const json = await readInputFile(file, {limit: inputLimits.json})
      if (json !== undefined) budget.count(file, json)
      // Syntax errors are placed by the runtime’s JSON reader first, with line and column.
      if (json !== undefined) parseJsonText(file, json)
      return json
    },
    // Its positions take a scan of the whole file, many times JSON.parse’s time: kept, unless the cache has it.
    jsonGraph: (text, file) => cachedGraph(cache, 'GRAPH.json', text, file, () => jsonGraph(text, file)),
    // Parsed in a worker under the same deadline as the contract files, unless the cache has it.
    markdownGraph: (text, file) => cachedGraph(cache, 'GRAPH.md', text, file, async () => (await parser.get()).readGraph(file, text))
  })
}

/** The graph the cache holds for this `text` read as a `from` file, naming `file`; else the one `read` gives, then kept. */
async function cachedGraph(
  cache: ContractCache,
  from: FolderGraph['from'],
  text: string,
  file: string,
  read: () => Promise<FolderGraph> | FolderGraph
): Promise<FolderGraph> {
  const hash = hashContractText(text)
  const cached = await cache.getGraph(from, hash, file)
  if (cached) return cached
  const graph = await read()
  cache.setGraph(hash, graph)
  return graph
}

/**
 * The slice named `id` (any case, spaces around ignored), or a `UserError`:
 * naming the argument when it is no slice id, else listing the known ones.
 */
export function findSlice(project: Project, id: string): ProjectSlice {
  if (!isSliceId(id.trim())) throw new UserError(`Unexpected slice id ${JSON.stringify(id)} in the arguments, expected ${sliceIdRule}`)
  const slice = project.slices.find((candidate) => candidate.id.toLowerCase() === id.trim().toLowerCase())
  if (!slice) {
    const known = project.slices.map((candidate) => candidate.id).join(', ') || 'none'
    throw new UserError(`Unexpected slice \`${id}\`, expected one of: ${known}`)
  }
  if (slice.missing.length > 0) {
    throw new ProjectError(
      path.join(project.dir, project.slicesFrom),
      `slice ${slice.id} lists ${slice.missing.join(', ')}, which no contract file defines (CONTRACTS.md, contracts/*.md)`
    )
  }
  return slice
}

/** What the gate needs for a slice. */
export function gateContext(project: Project, slice: ProjectSlice): GateContext & {slice: ResolvedSlice} {
  const input: SliceInput = {
    id: slice.id,
    name: slice.name,
    tier: slice.tier,
    contracts: slice.contracts.map((loaded) => loaded.contract),
    humanCheck: slice.humanCheck,
    verification: slice.verification,
    retired: slice.retired
  }
  const resolved = resolveSlice(input)
  return {
    dir: project.dir,
    slice: resolved,
    // The test writer gets the contracts the user checked: the verify ones, as the slice resolves them.
    contracts: slice.contracts
      .filter((_, index) => resolved.contracts[index]?.tierInSlice === 'verify')
      .map((loaded) => ({label: loaded.contract.label, source: loaded.source})),
    // The slice’s own check is part of what an approval was given on.
    contractsHash: hashContracts([...slice.contracts.map((loaded) => loaded.source), ...sliceOwnText(slice)]),
    threshold: project.threshold,
    // What an approval pins: the bar a later change may not lower without a person.
    pins: slicePins(input, resolved)
  }
}

/** The slice’s own check, as it enters the hash of what was approved: nothing when it has none, so old approvals stay. */
function sliceOwnText(slice: ProjectSlice): string[] {
  if (slice.humanCheck === null && slice.retired === null) return []
  return [`slice ${slice.id}: human check: ${slice.humanCheck ?? ''}; retired: ${slice.retired ?? ''}`]
}

/** File names the loader reads as contract files: markdown, by the extensions the lint reads too (`markdown-extensions`), in any case. */
const contractFileName = new RegExp(`\\.(?:${markdownExtensions.join('|')})$`, 'i')

/** How deep the walk of `contracts/` goes: a contract file at most this many folders down is read, one deeper is a problem. */
const contractDepth = 8

/**
 * The markdown files under `contracts/`, in every subfolder down to
 * `contractDepth`, sorted. What the walk cannot list, name or reach (a
 * folder that cannot be listed, a name not in UTF-8, a symbolic link, a
 * folder deeper) is a problem naming it, never a file skipped (see `walk.ts`).
 */
async function contractFiles(folder: string, problems: ProjectProblem[]): Promise<string[]> {
  const files = await walkFiles(folder, problems, {
    reads: (name) => contractFileName.test(name),
    depth: contractDepth,
    tooDeep: `Unexpected folder nested more than ${contractDepth} deep in contracts/, expected contract files at most ${contractDepth} folders down; the folder is not read`
  })
  return files.map((file) => file.path)
}

/** Contracts of the project’s files, and the problems of files that hold markdown but no contract. */
async function loadContracts(
  dir: string,
  cache: ContractCache,
  parser: LazyReader,
  budget: ReadBudget,
  names: readonly string[]
): Promise<{contracts: LoadedContract[]; problems: ProjectProblem[]}> {
  const problems: ProjectProblem[] = []
  const files = [path.join(dir, 'CONTRACTS.md'), ...(await contractFiles(path.join(dir, 'contracts'), problems))]
  // All read before any is parsed: a project over the limit in all fails at once.
  const texts: Array<[string, string]> = []
  for (const file of files) {
    const text = await budget.read(file, 'split the contracts over several files in contracts/')
    if (text !== undefined) texts.push([file, text])
  }
  const loaded: LoadedContract[] = []
  for (const [file, text] of texts) {
    // What the graph names changes what is read, so it is part of each entry’s hash; where the file is, is not.
    const hash = hashContractText(text, names)
    let contracts = await cache.get(hash)
    if (!contracts) {
      // The markdown parser (in a worker, under a deadline) starts only when a file changed.
      const analysis = await (await parser.get()).read(file, text, {names})
      contracts = analysis.contracts
      // Only a file read without a problem is kept: a cached file has none, so none is ever lost.
      if (analysis.problems.length === 0) cache.set(hash, contracts.map(forCache))
      for (const problem of analysis.problems) problems.push({file, line: problem.place.start.line, message: describeContractProblem(problem)})
    }
    if (contracts.length === 0 && file !== files[0] && text.trim() !== '') {
      problems.push({
        file,
        line: null,
        message: 'Unexpected contract file without a contract tiers can read, expected contract headings such as `### C-01: Name`'
      })
    }
    for (const contract of contracts) {
      const {start, end} = contract.position
      loaded.push({contract, file, source: text.slice(start.offset ?? 0, end.offset ?? text.length)})
    }
  }
  return {contracts: loaded, problems}
}

/**
 * What the cache keeps of a contract: everything the commands read. Of its
 * fields only those with text not read as items (for `tiers contracts`), as
 * the fields’ positions are nine tenths of a contract’s size.
 */
function forCache(contract: Contract): Contract {
  return {...contract, fields: contract.fields.filter((field) => field.unread.length > 0)}
}

/**
 * The graph’s slices with their contracts, matched by id (whatever the
 * case, hyphen and leading zeros: `C5` finds `C-05`) or by name (any case,
 * spaces around ignored), each contract once; entries no contract matches
 * are `missing`, as the graph writes them, and a problem each.
 *
 * So that no contract escapes every checkpoint because the graph forgot it,
 * a contract the graph lists under no slice is placed by its own Slice field
 * (its slice heading’s id, else): into the slice of that id, or a slice of
 * its own when the graph has none, with a warning. A verify contract with no
 * slice at all, and a second contract with an id the graph lists, are
 * problems. A contract the graph lists stays where the graph puts it.
 */
function slicesFromGraph(graph: FolderGraph, contracts: LoadedContract[], warn: Warn): {slices: ProjectSlice[]; problems: ProjectProblem[]} {
  const index: ContractIndex<LoadedContract> = indexContracts(contracts, (loaded) => loaded.contract)
  const problems: ProjectProblem[] = []
  const slices: ProjectSlice[] = graph.slices.map((slice) => {
    const {found, missing} = matchSlice(index, slice)
    for (const {text, line} of missing) {
      problems.push({
        file: graph.file,
        line,
        message: `Unexpected ${JSON.stringify(text)} in the contracts of slice ${slice.id}, expected the id or name of a contract in CONTRACTS.md or contracts/`
      })
    }
    return {
      id: slice.id,
      name: slice.name,
      contracts: found,
      missing: missing.map((ref) => ref.text),
      tier: slice.tier,
      humanCheck: slice.humanCheck,
      verification: slice.verification,
      retired: slice.retired,
      openTasks: [],
      optionalTasks: [],
      statedAt: slice.line === null ? graph.file : `${graph.file}:${slice.line}`
    }
  })
  const sliceById = new Map(slices.map((slice) => [slice.id.toLowerCase(), slice]))
  const listed = new Set(slices.flatMap((slice) => slice.contracts))
  const graphIds = new Set(sliceById.keys())
  for (const warning of slicesTheGraphLeftOut(slices, graph.from)) warn(warning)
  for (const loaded of contracts) {
    if (listed.has(loaded)) continue
    const {contract, file} = loaded
    // A second contract of an id the graph lists: the graph’s entry went to the first.
    const first = contract.id ? index.byId.get(contractKey(contract.id)) : undefined
    const second = first !== undefined && first !== loaded && listed.has(first)
    if (second) {
      problems.push({
        file,
        line: contract.headingPosition.start.line,
        message: `Unexpected second contract ${contract.label}, the id of the contract at ${first.file}:${first.contract.headingPosition.start.line}, which ${graph.from} lists; expected an id of its own`
      })
    }
    const named = contract.slice
    const id = named && isSliceId(named) ? named : null
    const slice = id === null ? null : (sliceById.get(id.toLowerCase()) ?? makeSlice(loaded, id))
    if (slice === null) continue
    const made = !graphIds.has(slice.id.toLowerCase())
    const place = `${file}:${sliceLine(loaded, named ?? slice.id)}`
    // A second contract of a listed id is a problem already; the warning would say it twice.
    if (!second)
      warn(
        made
          ? `${place}: ${contract.label} is in slice ${named}, which ${graph.from} does not have; it is checked as a slice of its own: add ${named} to ${graph.from}, or correct its slice`
          : `${place}: ${contract.label} is in slice ${named}, but ${graph.from} does not list it there; it is checked with ${slice.id}: list it in ${graph.from}, or correct its slice`
      )
    if (!sliceById.has(slice.id.toLowerCase())) {
      sliceById.set(slice.id.toLowerCase(), slice)
      slices.push(slice)
    }
    slice.contracts.push(loaded)
  }
  for (const problem of unslicedProblems(contracts, slices, graph.from)) problems.push(problem)
  return {slices, problems}
}

/**
 * A warning for each contract the graph lists whose own Slice field names a
 * slice of the graph that the graph does not list it under (`**Slice:** S-1,
 * S-3` where the graph has it in S-1 only): the graph decides, so a person
 * reading the contract would miss it in S-3's checkpoint. A field that does
 * not read as slice ids, one or a list, says nothing here.
 */
function slicesTheGraphLeftOut(slices: readonly ProjectSlice[], from: string): string[] {
  const graphIds = new Set(slices.map((slice) => slice.id.toLowerCase()))
  const listedIn = new Map<LoadedContract, string[]>()
  for (const slice of slices) for (const loaded of slice.contracts) listedIn.set(loaded, [...(listedIn.get(loaded) ?? []), slice.id])
  const warnings: string[] = []
  for (const [loaded, ids] of listedIn) {
    const named = loaded.contract.slice
    const written = named ? named.split(/\s*(?:,|&|\band\b)\s*/).map((part) => part.trim()) : []
    if (written.length === 0 || !written.every((id) => isSliceId(id))) continue
    const known = new Set(ids.map((id) => id.toLowerCase()))
    // A slice the graph does not have (renamed, say) has no checkpoint to miss the contract in.
    const left = written.filter((id) => graphIds.has(id.toLowerCase()) && !known.has(id.toLowerCase()))
    if (left.length === 0) continue
    warnings.push(
      `${loaded.file}:${sliceLine(loaded, named!)}: ${loaded.contract.label} is in slice ${named}, but ${from} lists it under ${ids.join(', ')} only; it is checked with ${ids.join(', ')}: list it under ${left.join(', ')} in ${from}, or correct its slice`
    )
  }
  return warnings
}

/**
 * A problem for each verify contract in no slice: no checkpoint shows it.
 * Its tier is its own, as no slice states one for it.
 */
function unslicedProblems(contracts: readonly LoadedContract[], slices: readonly ProjectSlice[], from: string): ProjectProblem[] {
  const placed = new Set(slices.flatMap((slice) => slice.contracts))
  return contracts
    .filter((loaded) => !placed.has(loaded) && contractTier(loaded.contract, null).tier === 'verify')
    .map(({contract, file}) => {
      const named = contract.slice && !isSliceId(contract.slice) ? ` (its slice ${JSON.stringify(contract.slice)} is no slice id)` : ''
      return {
        file,
        line: contract.headingPosition.start.line,
        message: `Unexpected verify contract ${contract.label} in no slice${named}, expected it under a slice in ${from}, so that a checkpoint shows it`
      }
    })
}

/** A slice of its own for a contract whose Slice field names a slice the graph does not have. */
function makeSlice(loaded: LoadedContract, id: string): ProjectSlice {
  const heading = loaded.contract.sliceHeading
  return {
    id,
    name: heading?.id === id && heading.name ? heading.name : id,
    contracts: [],
    missing: [],
    tier: null,
    humanCheck: null,
    verification: null,
    retired: null,
    openTasks: [],
    optionalTasks: []
  }
}

/** Slices from the contracts’ Slice fields, when there is no graph. */
function slicesFromContracts(contracts: LoadedContract[]): {slices: ProjectSlice[]; problems: ProjectProblem[]} {
  const slices = new Map<string, ProjectSlice>()
  for (const loaded of contracts) {
    const id = loaded.contract.slice
    if (!id) continue
    if (!isSliceId(id)) checkSliceId(id, `${loaded.file}:${sliceLine(loaded, id)}`)
    let slice = slices.get(id)
    if (!slice) {
      slice = makeSlice(loaded, id)
      slice.name = id
      slices.set(id, slice)
    }
    const heading = loaded.contract.sliceHeading
    if (slice.name === id && heading?.id === id && heading.name) slice.name = heading.name
    slice.contracts.push(loaded)
  }
  const list = [...slices.values()]
  return {slices: list, problems: unslicedProblems(contracts, list, 'their Slice fields (or a GRAPH.json or GRAPH.md)')}
}

/**
 * The line that gives a contract its slice `id`: its Slice field (the first
 * line of the contract naming the slice and holding the id as written), else
 * the contract’s heading. Read from the source, so a contract from the cache
 * (which keeps few fields) gives the same line.
 */
function sliceLine(loaded: LoadedContract, id: string): number {
  const lines = loaded.source.split(/\r\n?|\n/)
  let index = lines.findIndex((line) => /slice/i.test(line) && line.includes(id))
  if (index === -1) index = lines.findIndex((line) => line.includes(id))
  return index === -1 ? loaded.contract.headingPosition.start.line : loaded.contract.position.start.line + index
}
