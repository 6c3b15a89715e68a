import type {Processor} from 'unified'
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
 * unified plugin giving the lint rules each file's slice graph
 * (`projectGraphs`, read for this processor), unless what runs the
 * processor gave them one already (`tiers lint` gives one for a whole run).
 */
export default function remarkSliceGraph(this: Processor): undefined {
  if (!this.data('verificationTiers')) this.data('verificationTiers', projectGraphs())
}

declare module 'unified' {
  interface Data {
    /** What the lint rules know of the linted file's project beyond the file. */
    verificationTiers?: ProjectGraphs | undefined
  }
}
