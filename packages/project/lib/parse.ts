// micromark made linear in the number of lists (see `contracts/lib/edit-map.ts`), before anything parses.
import '@verification-tiers/contracts/edit-map'
import {analyzeContracts} from '@verification-tiers/contracts'
import type {Contract, ContractAnalysis, ReadOptions} from '@verification-tiers/contracts'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {checkMarkdownDepth} from '@verification-tiers/graph'

// The parser the linter uses, so the gate reads every contract the lint rules see.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/**
 * Contracts of one markdown file, in every dialect the model reads;
 * `options.names` (ids or names a slice graph lists) make headings of those
 * names contracts too.
 */
export function parseContracts(file: string, text: string, options?: ReadOptions): Contract[] {
  return analyzeContractFile(file, text, options).contracts
}

/**
 * Contracts of one markdown file and the problems that kept parts of them
 * from being read: bad frontmatter, two tiers that disagree, a line that
 * looks like a contract heading but is none. Markdown nested too deep for
 * the reader's walks is a `ProjectError` naming its line.
 */
export function analyzeContractFile(file: string, text: string, options?: ReadOptions): ContractAnalysis {
  const vfile = new VFile({path: file, value: text})
  const tree = processor.parse(vfile)
  checkMarkdownDepth(tree, file)
  return analyzeContracts(tree, vfile, options)
}
