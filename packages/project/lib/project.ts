import {readdir, stat} from 'node:fs/promises'
import path from 'node:path'
import type {Contract, Tier} from '@verification-tiers/contracts'
import {contractTier, formatSize, hashContracts, inputLimits, isSliceId, parseJsonText, readInputFile, readProjectConfig, resolveSlice, sliceIdRule} from '@verification-tiers/runtime'
import type {GateContext, ProjectConfig, ResolvedSlice} from '@verification-tiers/runtime'
import {hashText, openCache} from './cache.js'
import type {Warn} from './cache.js'
import {ProjectError, UserError} from './errors.js'
import {checkSliceId, contractKey, readGraphJson, readGraphMarkdown} from './graph.js'
import type {GraphSlice} from './graph.js'

/** A contract with the file it is in and its markdown as written. */
export interface LoadedContract {
  contract: Contract
  /** Path as messages show it. */
  file: string
  source: string
}

/** A slice of the project: from GRAPH.json, or from the contracts’ Slice fields and slice headings. */
export interface ProjectSlice {
  id: string
  name: string
  contracts: LoadedContract[]
  /** Contract ids the graph lists that no contract file defines. */
  missing: string[]
  /** The tier the graph states for the slice, taken by its contracts that state none. */
  tier: Tier | null
}

/**
 * Something in the project the gate could not read, match or prove: a line
 * that looks like a contract but was not read as one, a graph entry that
 * matches no contract, a contract file the loader skips. Each counts against
 * the stop and against a passing checkpoint.
 */
export interface ProjectProblem {
  /** Path as messages show it. */
  file: string
  /** 1-based line, or `null` when the problem is the whole file. */
  line: number | null
  /** One line, without the file: `Unexpected …, expected …`. */
  message: string
}

/** A verification-tier project folder (`.greenlight`). */
export interface Project {
  dir: string
  config: ProjectConfig
  threshold: number
  contracts: LoadedContract[]
  slices: ProjectSlice[]
  /** Where the slices came from. */
  slicesFrom: 'GRAPH.json' | 'GRAPH.md' | 'contracts'
  /** What could not be read, matched or proven; the gate passes nothing while any is here. */
  problems: ProjectProblem[]
}

/** How a project is loaded. */
export interface LoadOptions {
  /** Where a warning goes (the contracts cache cannot be written): by default a line on stderr. */
  warn?: Warn
}

const warnOnStderr: Warn = (message) => process.stderr.write(`tiers: warning: ${message}\n`)

/**
 * Read the project: `config.json`, `GRAPH.json` (else `GRAPH.md`),
 * `CONTRACTS.md` and `contracts/*.md`, each optional but contracts. Each is
 * read as every input is (`readInputFile`): a regular file, of at most 16 MiB,
 * and 32 MiB of contract files in all.
 */
export async function loadProject(dir: string, {warn = warnOnStderr}: LoadOptions = {}): Promise<Project> {
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new UserError(`${dir}: no such project folder, expected \`--dir <folder>\` holding CONTRACTS.md`)
  const {config, threshold} = await readProjectConfig(path.join(dir, 'config.json'))
  const contracts = await loadContracts(dir, warn)
  if (contracts.length === 0) {
    throw new UserError(`${dir}: no contracts found, expected CONTRACTS.md or contracts/*.md with \`### C-NN: Name\` sections`)
  }
  const graph = await readGraph(dir)
  const slices = graph ? slicesFromGraph(graph, contracts, warn) : slicesFromContracts(contracts)
  return {dir, config, threshold, contracts, slices, slicesFrom: graph?.from ?? 'contracts', problems: []}
}

/** The project’s slice graph: `GRAPH.json`, else `GRAPH.md`, else none. */
async function readGraph(dir: string): Promise<{slices: GraphSlice[]; from: 'GRAPH.json' | 'GRAPH.md'} | null> {
  const jsonFile = path.join(dir, 'GRAPH.json')
  const json = await readInputFile(jsonFile, {limit: inputLimits.json})
  if (json !== undefined) return {slices: readGraphJson(parseJsonText(jsonFile, json), jsonFile, json), from: 'GRAPH.json'}
  const markdown = await readMarkdown(path.join(dir, 'GRAPH.md'))
  if (markdown !== undefined) return {slices: readGraphMarkdown(markdown, path.join(dir, 'GRAPH.md')), from: 'GRAPH.md'}
  return null
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
  const resolved = resolveSlice({id: slice.id, name: slice.name, tier: slice.tier, contracts: slice.contracts.map((loaded) => loaded.contract)})
  return {
    dir: project.dir,
    slice: resolved,
    // The test writer gets the contracts the user checked: the verify ones, as the slice resolves them.
    contracts: slice.contracts
      .filter((_, index) => resolved.contracts[index]?.effectiveTier === 'verify')
      .map((loaded) => ({label: loaded.contract.label, source: loaded.source})),
    contractsHash: hashContracts(slice.contracts.map((loaded) => loaded.source)),
    threshold: project.threshold
  }
}

async function loadContracts(dir: string, warn: Warn): Promise<LoadedContract[]> {
  const files = [path.join(dir, 'CONTRACTS.md')]
  const folder = path.join(dir, 'contracts')
  const entries = await readdir(folder).catch(() => [] as string[])
  files.push(...entries.filter((name) => name.endsWith('.md')).sort().map((name) => path.join(folder, name)))
  // All read before any is parsed: a project over the limit in all fails at once.
  const texts: Array<[string, string]> = []
  let total = 0
  for (const file of files) {
    const text = await readMarkdown(file, 'split the contracts over several files in contracts/')
    if (text === undefined) continue
    total += Buffer.byteLength(text)
    if (total > inputLimits.contracts) {
      throw new ProjectError(dir, `Unexpected contract files of more than ${formatSize(inputLimits.contracts)} in all (at ${path.relative(dir, file)}), expected at most ${formatSize(inputLimits.contracts)}`)
    }
    texts.push([file, text])
  }
  const loaded: LoadedContract[] = []
  const cache = await openCache(dir, warn)
  for (const [file, text] of texts) {
    const key = path.relative(dir, file)
    const hash = hashText(text)
    let contracts = cache.get(key, hash)
    if (!contracts) {
      // The markdown parser loads only when a file changed.
      const {parseContracts} = await import('./parse.js')
      contracts = parseContracts(file, text)
      cache.set(key, hash, contracts.map(forCache))
    }
    for (const contract of contracts) {
      const {start, end} = contract.position
      loaded.push({contract, file, source: text.slice(start.offset ?? 0, end.offset ?? text.length)})
    }
  }
  await cache.save()
  return loaded
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
 * The graph’s slices with their contracts, matched by id whatever the case,
 * hyphen and leading zeros (`C5` finds `C-05`), each contract once; ids no
 * contract defines are `missing`, as the graph writes them.
 *
 * So that no contract escapes every checkpoint because the graph forgot it,
 * a contract the graph lists under no slice is placed by its own Slice field
 * (its slice heading’s id, else): into the slice of that id, or a slice of
 * its own when the graph has none, with a warning. A verify contract with no
 * slice at all is warned about, as no checkpoint shows it. A contract the
 * graph lists stays where the graph puts it.
 */
function slicesFromGraph(graph: {slices: GraphSlice[]; from: string}, contracts: LoadedContract[], warn: Warn): ProjectSlice[] {
  const byKey = new Map<string, LoadedContract>()
  for (const loaded of contracts) {
    const key = loaded.contract.id ? contractKey(loaded.contract.id) : null
    if (key !== null && !byKey.has(key)) byKey.set(key, loaded)
  }
  const slices: ProjectSlice[] = graph.slices.map((slice) => {
    const found = new Set<LoadedContract>()
    const missing = new Map<string, string>()
    for (const id of slice.contracts) {
      const loaded = byKey.get(contractKey(id))
      if (loaded) found.add(loaded)
      else if (!missing.has(contractKey(id))) missing.set(contractKey(id), id)
    }
    return {id: slice.id, name: slice.name, contracts: [...found], missing: [...missing.values()], tier: slice.tier}
  })
  const sliceById = new Map(slices.map((slice) => [slice.id.toLowerCase(), slice]))
  const listed = new Set(slices.flatMap((slice) => slice.contracts))
  const graphIds = new Set(sliceById.keys())
  for (const loaded of contracts) {
    if (listed.has(loaded)) continue
    const named = loaded.contract.slice
    const id = named && isSliceId(named) ? named : null
    const slice = id === null ? null : (sliceById.get(id.toLowerCase()) ?? makeSlice(loaded, id))
    const message = unlistedWarning(loaded, slice, named, byKey, listed, slice !== null && !graphIds.has(slice.id.toLowerCase()), graph.from)
    if (message) warn(message)
    if (slice === null) continue
    if (!sliceById.has(slice.id.toLowerCase())) {
      sliceById.set(slice.id.toLowerCase(), slice)
      slices.push(slice)
    }
    slice.contracts.push(loaded)
  }
  return slices
}

/** A slice of its own for a contract whose Slice field names a slice the graph does not have. */
function makeSlice(loaded: LoadedContract, id: string): ProjectSlice {
  const heading = loaded.contract.sliceHeading
  return {id, name: heading?.id === id && heading.name ? heading.name : id, contracts: [], missing: [], tier: null}
}

/**
 * What to say of a contract the graph lists under no slice, placed in
 * `slice` by its Slice field (`null`: in none; `made`: a slice the graph
 * does not have). Empty when there is nothing to say: an auto contract in
 * no slice needs no checkpoint.
 */
function unlistedWarning(
  loaded: LoadedContract,
  slice: ProjectSlice | null,
  named: string | null,
  byKey: ReadonlyMap<string, LoadedContract>,
  listed: ReadonlySet<LoadedContract>,
  made: boolean,
  graphFile: string
): string {
  const {contract, file} = loaded
  const label = contract.label
  const checked =
    slice === null ? (contractTier(contract, null).tier === 'verify' ? 'no checkpoint shows it' : '') : made ? 'it is checked as a slice of its own' : `it is checked with ${slice.id}`
  // A second contract of an id the graph lists: the graph’s entry went to the first.
  const first = contract.id ? byKey.get(contractKey(contract.id)) : undefined
  if (first && first !== loaded && listed.has(first)) {
    const where = `${first.file}:${first.contract.headingPosition.start.line}`
    return `${file}:${contract.headingPosition.start.line}: ${label} has the id of the contract at ${where}, which ${graphFile} lists; ${checked || 'it is in no slice'}: give it an id of its own`
  }
  if (slice === null) {
    if (!checked) return ''
    const line = named ? sliceLine(loaded, named) : contract.headingPosition.start.line
    const which = named ? ` (its slice ${JSON.stringify(named)} is no slice id)` : ''
    return `${file}:${line}: ${label} is a verify contract in no slice of ${graphFile}${which}, so no checkpoint shows it: list it under its slice in ${graphFile}`
  }
  const place = `${file}:${sliceLine(loaded, named ?? slice.id)}`
  return made
    ? `${place}: ${label} is in slice ${named}, which ${graphFile} does not have; ${checked}: add ${named} to ${graphFile}, or correct its slice`
    : `${place}: ${label} is in slice ${named}, but ${graphFile} does not list it there; ${checked}: list it in ${graphFile}, or correct its slice`
}

function slicesFromContracts(contracts: LoadedContract[]): ProjectSlice[] {
  const slices = new Map<string, ProjectSlice>()
  for (const loaded of contracts) {
    const id = loaded.contract.slice
    if (!id) continue
    if (!isSliceId(id)) checkSliceId(id, `${loaded.file}:${sliceLine(loaded, id)}`)
    let slice = slices.get(id)
    if (!slice) {
      slice = {id, name: id, contracts: [], missing: [], tier: null}
      slices.set(id, slice)
    }
    const heading = loaded.contract.sliceHeading
    if (slice.name === id && heading?.id === id && heading.name) slice.name = heading.name
    slice.contracts.push(loaded)
  }
  return [...slices.values()]
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

/** A markdown input of the project, `undefined` when there is none; `advice` says what to do about one over the size limit. */
function readMarkdown(file: string, advice?: string): Promise<string | undefined> {
  return readInputFile(file, advice === undefined ? {limit: inputLimits.markdown} : {limit: inputLimits.markdown, advice})
}
