import {extractContracts} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'

// The parser the linter uses, so the gate reads every contract the lint rules see.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/** Contracts of one markdown file, in every dialect the model reads. */
export function parseContracts(file: string, text: string): Contract[] {
  const vfile = new VFile({path: file, value: text})
  return extractContracts(processor.parse(vfile), vfile)
}
