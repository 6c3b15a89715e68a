import type {Root, RootContent} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'

// The parser the linter uses, so a tool's reader sees the tree the lint rules see.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/** The mdast tree of a markdown text. */
export function parseMarkdown(text: string): Root {
  return processor.parse(text)
}

/** A node's markdown as written: the text between its start and end offsets. */
export function sourceOf(text: string, node: Root | RootContent): string {
  return text.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0)
}
