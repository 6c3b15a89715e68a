import {constants} from 'node:fs'
import {open} from 'node:fs/promises'
import path from 'node:path'
import {ProjectError} from './errors.js'
import type {Graph, GraphProblem} from './graph.js'
import {readGraphJson} from './graph-json.js'

/** A graph as read from a folder: its slices, and what of it could not be read as a slice. */
export type FolderGraph = Graph & {problems: GraphProblem[]}

/** How a folder’s graph is read. */
export interface ReadGraphOptions {
  /**
   * Read one file: its text, or `undefined` when there is none; throw when it
   * cannot be read. By default a regular file of at most `graphSizeLimit`
   * bytes (`readGraphFile`).
   */
  readFile?: (file: string) => Promise<string | undefined>
}

/** Largest graph file read, in bytes: 16 MiB, as every input of the gate. */
export const graphSizeLimit = 16 * 1024 * 1024

/**
 * The slice graph of a project folder: `GRAPH.json`, else `GRAPH.md`, else
 * `null`. A graph that cannot be read is a `ProjectError` naming its file
 * (and line); what a `GRAPH.md` holds that is no slice is in `problems`.
 */
export async function readGraph(dir: string, {readFile = readGraphFile}: ReadGraphOptions = {}): Promise<FolderGraph | null> {
  const jsonFile = path.join(dir, 'GRAPH.json')
  const json = await readFile(jsonFile)
  if (json !== undefined) return {from: 'GRAPH.json', file: jsonFile, slices: readGraphJson(json, jsonFile), problems: []}
  const markdownFile = path.join(dir, 'GRAPH.md')
  const markdown = await readFile(markdownFile)
  if (markdown === undefined) return null
  // The markdown parser loads only for a GRAPH.md.
  const {readGraphMarkdown} = await import('./graph-markdown.js')
  return {from: 'GRAPH.md', file: markdownFile, ...readGraphMarkdown(markdown, markdownFile)}
}

/**
 * The text of a graph file (UTF-8), or `undefined` when there is none. Only a
 * regular file of at most `graphSizeLimit` bytes is read: it is opened without
 * blocking and checked through the handle, so a FIFO never holds the reader;
 * anything else is a `ProjectError` naming the file.
 */
export async function readGraphFile(file: string): Promise<string | undefined> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined
    throw new ProjectError(file, `cannot be read (${error.message})`)
  })
  if (handle === undefined) return undefined
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new ProjectError(file, 'Unexpected file that is not a regular file, expected a regular file')
    if (info.size > graphSizeLimit) throw new ProjectError(file, `Unexpected size of ${info.size} bytes, expected at most ${graphSizeLimit} bytes`)
    // One byte more than its size: a file that grew while it was read is refused, not cut.
    const buffer = Buffer.alloc(info.size + 1)
    let length = 0
    for (;;) {
      const {bytesRead} = await handle.read(buffer, length, buffer.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
      if (length === buffer.length) throw new ProjectError(file, 'Unexpected file that grew while it was read, expected a file that stays as it is')
    }
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    await handle.close()
  }
}
