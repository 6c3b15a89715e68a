import {statSync} from 'node:fs'
import type {Processor} from 'unified'
import {graphFiles} from './files.js'
import type {FolderGraph} from './graph.js'
import {readGraphSync} from './read-sync.js'

/**
 * What the lint rules are given of a file's project beyond the file, as
 * `processor.data('verificationTiers')`: the slice graph of a project
 * folder, `null` when it has none, or one that cannot be read (the gate
 * reports it; linting goes on).
 */
export interface ProjectGraphs {
  graphOf(folder: string): FolderGraph | null
}

/** `ProjectGraphs` reading each folder's graph once, when a rule first asks. */
export function projectGraphs(): ProjectGraphs {
  const graphs = new Map<string, FolderGraph | null>()
  return {
    graphOf(folder) {
      if (!graphs.has(folder)) graphs.set(folder, readGraphOrNull(folder))
      return graphs.get(folder) ?? null
    }
  }
}

function readGraphOrNull(folder: string): FolderGraph | null {
  try {
    return readGraphSync(folder)
  } catch {
    return null
  }
}

/**
 * unified plugin giving the lint rules each file's slice graph, unless what
 * runs the processor gave one already (`tiers lint` gives one for a whole
 * run). The remark CLI and an editor's language server make a processor for
 * each file: the graphs are kept across them, each read again only when its
 * files change, so a folder of contract files reads its graph once and an
 * editor sees each edit.
 */
export default function remarkSliceGraph(this: Processor): undefined {
  if (!this.data('verificationTiers')) this.data('verificationTiers', keptGraphs)
}

/** Graphs read by `remarkSliceGraph`, by folder, with the stamp of their files when read. */
const kept = new Map<string, {stamp: string; graph: FolderGraph | null}>()

const keptGraphs: ProjectGraphs = {
  graphOf(folder) {
    const files = graphFiles(folder)
    const stamp = `${stampOf(files.json)}|${stampOf(files.markdown)}`
    const known = kept.get(folder)
    if (known?.stamp === stamp) return known.graph
    const graph = readGraphOrNull(folder)
    kept.set(folder, {stamp, graph})
    return graph
  }
}

/** What changes when a file is edited or replaced: its size, times and inode; `-` when there is none. */
function stampOf(file: string): string {
  try {
    const info = statSync(file, {throwIfNoEntry: false})
    return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : '-'
  } catch {
    return '?'
  }
}

declare module 'unified' {
  interface Data {
    /** What the lint rules know of the linted file's project beyond the file. */
    verificationTiers?: ProjectGraphs | undefined
  }
}
