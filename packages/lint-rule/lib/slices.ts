import {statSync} from 'node:fs'
import path from 'node:path'
import type {Contract} from '@verification-tiers/contracts'
import {graphFiles, graphNames, slicesByContract} from '@verification-tiers/graph'
import {readGraphSync} from '@verification-tiers/graph/markdown'
import type {FolderGraph, GraphSlice} from '@verification-tiers/graph'
import type {VFile} from 'vfile'

/** What a check may ask about the slices of the project the linted file is in. */
export interface ProjectSlices {
  /** The graph’s file (`…/GRAPH.json` or `…/GRAPH.md`), `null` when the file’s project has none the rules could read. */
  graphFile: string | null
  /** Ids and names the graph lists: a heading of one of these is a contract, as the gate reads it. */
  names: readonly string[]
  /**
   * The slices the gate puts a contract in, with the tiers and human checks
   * they state: those that list it (by id or name), else the slice its Slice
   * field names. Empty when the graph places it nowhere, or there is no graph.
   */
  slicesOf(contract: Contract): readonly GraphSlice[]
}

/** No graph: every contract is in no slice, as before the rules knew graphs. */
export const noSlices: ProjectSlices = {graphFile: null, names: [], slicesOf: () => []}

/** How deep under `contracts/` the gate reads contract files. */
const contractFolderDepth = 9

/**
 * The project folder whose graph applies to a file, as the gate reads
 * contract files: the folder of a `CONTRACTS.md`, or the folder holding the
 * `contracts/` folder a markdown file is in. `null` for any other file (its
 * headings are not the gate’s contracts) and for a file without a path.
 */
export function projectFolderOf(file: Pick<VFile, 'cwd' | 'path'>): string | null {
  if (!file.path) return null
  return projectFolderOfPath(path.resolve(file.cwd, file.path))
}

/** `projectFolderOf` a file's absolute path. */
export function projectFolderOfPath(absolute: string): string | null {
  if (path.basename(absolute).toLowerCase() === 'contracts.md') return path.dirname(absolute)
  let folder = path.dirname(absolute)
  for (let depth = 0; depth < contractFolderDepth && path.dirname(folder) !== folder; depth++) {
    if (path.basename(folder) === 'contracts') return path.dirname(folder)
    folder = path.dirname(folder)
  }
  return null
}

/** Graphs read, by folder, with the stamp of their files when read: one read per folder while the files stay as they are. */
const graphs = new Map<string, {stamp: string; graph: FolderGraph | null}>()

/** What changes when a file is edited or replaced: its size, times and inode; `-` when there is none. */
function stampOf(file: string): string {
  try {
    const info = statSync(file, {throwIfNoEntry: false})
    return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : '-'
  } catch {
    return '?'
  }
}

/**
 * The graph of a project folder, read once while its files stay unchanged
 * (an editor’s language server sees each edit). A graph that cannot be read
 * is no graph here: the gate reports it, and a lint rule never throws.
 */
export function graphOf(dir: string): FolderGraph | null {
  const files = graphFiles(dir)
  const stamp = `${stampOf(files.json)}|${stampOf(files.markdown)}`
  const cached = graphs.get(dir)
  if (cached?.stamp === stamp) return cached.graph
  let graph: FolderGraph | null = null
  try {
    graph = readGraphSync(dir)
  } catch {
    graph = null
  }
  graphs.set(dir, {stamp, graph})
  return graph
}

/** What the checks ask of a graph, over the contracts of one document. */
export function sliceView(graph: FolderGraph, contracts: readonly Contract[]): ProjectSlices {
  // Matched when a check first asks: most documents have no contract, and most checks never ask.
  let placed: Map<Contract, GraphSlice[]> | undefined
  return {graphFile: graph.file, names: namesOfGraph(graph), slicesOf: (contract) => (placed ??= slicesByContract(graph.slices, contracts, (each) => each)).get(contract) ?? []}
}

/** The names a graph lists (`graphNames`), worked out once per graph read: every file of its project asks. */
export function namesOfGraph(graph: FolderGraph): readonly string[] {
  let names = graphNamesRead.get(graph)
  if (!names) {
    names = Object.freeze(graphNames(graph))
    graphNamesRead.set(graph, names)
  }
  return names
}

const graphNamesRead = new WeakMap<FolderGraph, readonly string[]>()
