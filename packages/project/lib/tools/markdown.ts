import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'

// The parser the linter and the Greenlight reader use, so a tool's files read as the lint rules see them.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/** The mdast tree of a markdown file of a tool's folder. */
export function parseMarkdown(text: string): Root {
  return processor.parse(text)
}
