import {inputLimits, readInputFileSync} from '@verification-tiers/input/read'
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

/** Largest graph file read, in bytes: 16 MiB, as every JSON input of the gate. */
export const graphSizeLimit = inputLimits.json

/**
 * The slice graph of a project folder: `GRAPH.json`, else `GRAPH.md`, else
 * `null`. A graph that cannot be read is a `FileReadError` naming its file,
 * a graph whose content cannot be used a `ProjectError` naming its file
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
 * The text of a graph file (UTF-8), or `undefined` when there is none, read
 * as every input is (`readInputFileSync`): a regular file of at most
 * `graphSizeLimit` bytes, opened without blocking, so a FIFO never holds
 * the reader; anything else is a `FileReadError` naming the file.
 */
export function readGraphFile(file: string): string | undefined {
  return readInputFileSync(file, {limit: graphSizeLimit})
}
