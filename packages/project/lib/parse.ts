import {extractContracts} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {checkMarkdownDepth} from './depth.js'

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
  checkMarkdownDepth(tree, file)
  return extractContracts(tree, vfile)
}
