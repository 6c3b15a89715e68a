import {extractContracts} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {maxMarkdownDepth, nodeBeyondDepth} from './depth.js'
import {ProjectError} from './errors.js'

// The parser the linter uses, so the gate reads every contract the lint rules see.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/** What the loader passes the contract reader: the names the graph lists. */
export interface ParseOptions {
  names?: readonly string[]
}

/**
 * Contracts of one markdown file, in every dialect the model reads. Markdown
 * nested too deep for the reader's walks is a `ProjectError` naming its line.
 */
export function parseContracts(file: string, text: string, _options: ParseOptions = {}): Contract[] {
  const vfile = new VFile({path: file, value: text})
  const tree = processor.parse(vfile)
  const deep = nodeBeyondDepth(tree)
  if (deep) {
    const line = deep.position?.start.line
    throw new ProjectError(line === undefined ? file : `${file}:${line}`, `Unexpected markdown nested over ${maxMarkdownDepth} levels deep (emphasis, lists or quotes), expected at most ${maxMarkdownDepth}`)
  }
  return extractContracts(tree, vfile)
}
