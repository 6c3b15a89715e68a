import type {FolderGraph} from './graph.js'
import {jsonGraph} from './graph-json.js'
import {markdownGraph} from './graph-markdown.js'
import {graphFiles} from './files.js'
import {readGraphFile} from './read.js'
import type {ReadGraphOptions} from './read.js'

/** `readGraph`, for a caller that cannot wait (a lint rule, which `runSync` and `processSync` run). */
export function readGraphSync(dir: string, {readFile = readGraphFile}: ReadGraphOptions<string | undefined> = {}): FolderGraph | null {
  const files = graphFiles(dir)
  const json = readFile(files.json)
  if (json !== undefined) return jsonGraph(json, files.json)
  const markdown = readFile(files.markdown)
  return markdown === undefined ? null : markdownGraph(markdown, files.markdown)
}
