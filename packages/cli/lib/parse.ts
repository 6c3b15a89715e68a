import {extractContracts} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {remarkParseFast} from './lint/fast-parse.js'

// The same trees as remark-parse, faster for contract markdown and large files.
const processor = unified().use(remarkParse).use(remarkFrontmatter).use(remarkParseFast)

/** Contracts of one markdown file, in every dialect the model reads. */
export function parseContracts(file: string, text: string): Contract[] {
  const vfile = new VFile({path: file, value: text})
  return extractContracts(processor.parse(vfile), vfile)
}
