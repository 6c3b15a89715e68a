import path from 'node:path'
import type {Contract} from '@verification-tiers/contracts'
import {graphNames, slicesByContract} from '@verification-tiers/graph'
import type {FolderGraph, GraphSlice} from '@verification-tiers/graph'
import type {ProjectGraphs} from '@verification-tiers/graph/remark'
import type {VFile} from 'vfile'

/** What a check may ask about the slices of the project the linted file is in. */
export interface ProjectSlices {
  /** The graph’s file (`…/GRAPH.json` or `…/GRAPH.md`), `null` when the processor gave no graph for the file’s project. */
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

/**
 * What a processor gives the rules about a file’s project beyond the file,
 * as `processor.data('verificationTiers')`: the slice graph of a project
 * folder (see `projectFolderOf`). The rules read only the tree and the file,
 * so whatever runs them (`tiers lint`, the preset’s `remarkSliceGraph`)
 * reads the graph.
 */
export type ProjectContext = ProjectGraphs

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

/** What the checks ask of a graph, over the contracts of one document whose headings were read with `names`. */
export function sliceView(graph: FolderGraph, names: readonly string[], contracts: readonly Contract[]): ProjectSlices {
  // Matched when a check first asks: most documents have no contract, and most checks never ask.
  let placed: Map<Contract, GraphSlice[]> | undefined
  return {graphFile: graph.file, names, slicesOf: (contract) => (placed ??= slicesByContract(graph.slices, contracts, (each) => each)).get(contract) ?? []}
}

/** The names a graph lists: a heading of one of these is a contract. */
export function namesOfGraph(graph: FolderGraph): readonly string[] {
  return Object.freeze(graphNames(graph))
}
