import {extractContracts} from '@verification-tiers/contracts'
import type {Contract, ReadOptions} from '@verification-tiers/contracts'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'

// The parser the linter uses, so the gate reads every contract the lint rules see.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/**
 * Contracts of one markdown file, in every dialect the model reads;
 * `options.names` (ids or names a slice graph lists) make headings of those
 * names contracts too.
 */
export function parseContracts(file: string, text: string, options?: ReadOptions): Contract[] {
  const vfile = new VFile({path: file, value: text})
  return extractContracts(processor.parse(vfile), vfile, options)
}
