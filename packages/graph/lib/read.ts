import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {ProjectError} from './errors.js'
import {graphFiles} from './files.js'
import type {FolderGraph} from './graph.js'
import {jsonGraph as graphOfJson} from './graph-json.js'

/** How a folder’s graph is read. */
export interface ReadGraphOptions<Text> {
  /**
   * Read one file: its text, or `undefined` when there is none; throw when it
   * cannot be read. By default `readGraphFile`: a regular file of at most
   * `graphSizeLimit` bytes.
   */
  readFile?: (file: string) => Text
  /**
   * Read a `GRAPH.md`'s text into its graph; by default in this thread. A
   * caller that must bound the parse (the gate) reads it elsewhere.
   */
  markdownGraph?: (text: string, file: string) => Promise<FolderGraph> | FolderGraph
  /**
   * Read a `GRAPH.json`'s text into its graph; by default `jsonGraph`. A
   * caller that keeps what it read (the gate’s contracts cache) skips the
   * reading of a file it has seen.
   */
  jsonGraph?: (text: string, file: string) => Promise<FolderGraph> | FolderGraph
}

/** Largest graph file read, in bytes: 16 MiB, as every input of the gate. */
export const graphSizeLimit = 16 * 1024 * 1024


/**
 * The slice graph of a project folder: `GRAPH.json`, else `GRAPH.md`, else
 * `null`. A graph that cannot be read is a `ProjectError` naming its file
 * (and line); what a `GRAPH.md` holds that is no slice is in `problems`.
 */
export async function readGraph(
  dir: string,
  {readFile = readGraphFile, markdownGraph, jsonGraph = graphOfJson}: ReadGraphOptions<Promise<string | undefined> | string | undefined> = {}
): Promise<FolderGraph | null> {
  const files = graphFiles(dir)
  const json = await readFile(files.json)
  if (json !== undefined) return jsonGraph(json, files.json)
  const markdown = await readFile(files.markdown)
  if (markdown === undefined) return null
  if (markdownGraph) return markdownGraph(markdown, files.markdown)
  // The markdown parser loads only for a GRAPH.md.
  return (await import('./graph-markdown.js')).markdownGraph(markdown, files.markdown)
}

/**
 * The text of a graph file (UTF-8), or `undefined` when there is none. Only a
 * regular file of at most `graphSizeLimit` bytes is read: it is opened without
 * blocking and checked through the handle, so a FIFO never holds the reader;
 * anything else is a `ProjectError` naming the file.
 */
export function readGraphFile(file: string): string | undefined {
  let descriptor: number
  try {
    // Opening a FIFO for reading blocks until a writer comes, unless non-blocking (Windows has no FIFOs).
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'EISDIR') throw new ProjectError(file, 'Unexpected folder, expected a regular file')
    throw new ProjectError(file, `cannot be read (${(error as Error).message})`)
  }
  try {
    const info = fstatSync(descriptor)
    if (!info.isFile()) throw new ProjectError(file, `Unexpected ${info.isDirectory() ? 'folder' : info.isFIFO() ? 'FIFO (named pipe)' : 'special file'}, expected a regular file`)
    if (info.size > graphSizeLimit) throw new ProjectError(file, `Unexpected size of ${info.size} bytes, expected at most ${graphSizeLimit} bytes`)
    // One byte more than its size: a file that grew while it was read is refused, not cut.
    const buffer = Buffer.alloc(info.size + 1)
    let length = 0
    for (let read = readSync(descriptor, buffer, 0, buffer.length, null); read > 0; read = readSync(descriptor, buffer, length, buffer.length - length, null)) {
      length += read
      if (length === buffer.length) throw new ProjectError(file, 'Unexpected file that grew while it was read, expected a file that stays as it is')
    }
    return buffer.subarray(0, length).toString('utf8')
  } catch (error) {
    if (error instanceof ProjectError) throw error
    throw new ProjectError(file, `cannot be read (${(error as Error).message})`)
  } finally {
    closeSync(descriptor)
  }
}
