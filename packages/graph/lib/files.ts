import path from 'node:path'

/** The names a folder's graph may have, in the order they are looked for. */
export const graphFileNames = ['GRAPH.json', 'GRAPH.md'] as const

/** The files a folder’s graph may be in, in the order they are looked for: `GRAPH.json`, then `GRAPH.md`. */
export function graphFiles(dir: string): {json: string; markdown: string} {
  return {json: path.join(dir, graphFileNames[0]), markdown: path.join(dir, graphFileNames[1])}
}
