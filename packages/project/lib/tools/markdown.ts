import type {Root, RootContent} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'

// The parser the linter and the Greenlight reader use, so a tool's files read as the lint rules see them.
const processor = unified().use(remarkParse).use(remarkFrontmatter)

/** The mdast tree of a markdown file of a tool's folder. */
export function parseMarkdown(text: string): Root {
  return processor.parse(text)
}

/**
 * Whether a line is inside a fenced block with a language (```` ```markdown ````):
 * an example of the file's format, whose headings and boxes are no one's.
 */
export function inFencedExample(nodes: readonly RootContent[]): (line: number) => boolean {
  const spans = nodes.flatMap((node) => (node.type === 'code' && node.lang && node.position ? [[node.position.start.line, node.position.end.line] as const] : []))
  return (line) => spans.some(([from, to]) => from <= line && line <= to)
}
