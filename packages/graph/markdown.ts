/** What needs the markdown parser: reading a `GRAPH.md`, and a folder’s graph read without waiting. */
export {readGraphMarkdown} from './lib/graph-markdown.js'
export type {MarkdownGraph} from './lib/graph-markdown.js'
export {readGraphSync} from './lib/read-sync.js'
export {markdownGraph} from './lib/graph-markdown.js'
