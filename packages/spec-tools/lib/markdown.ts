import type {Root, RootContent} from 'mdast'
// micromark made linear in the number of lists (see `contracts/lib/edit-map.ts`), before anything parses.
import '@verification-tiers/contracts/edit-map'
import {lastLineOf} from '@verification-tiers/contracts'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import {gfmTable} from 'micromark-extension-gfm-table'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import type {Processor} from 'unified'
import {unified} from 'unified'
import {VFile} from 'vfile'

/**
 * GitHub's tables, and nothing else of GFM (remark-gfm's table part): a
 * tool's template may put criteria in a table (Kiro, cc-sdd), whose rows are
 * read as criteria; a task's box stays text (`[ ]`), as the task reader
 * reads it.
 */
function remarkTables(this: Processor): void {
  const data = this.data()
  ;(data.micromarkExtensions ??= []).push(gfmTable())
  ;(data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown())
}

// The parser the linter uses, and tables, so a tool's files read as the lint rules see them.
const processor = unified().use(remarkParse).use(remarkFrontmatter).use(remarkTables)

/** A markdown file as a tree, with the file (its path and text) its positions refer to. */
export function parseMarkdown(file: string, text: string): {tree: Root; vfile: VFile} {
  const vfile = new VFile({path: file, value: text})
  return {tree: processor.parse(vfile), vfile}
}

/** The mdast tree of a markdown text. */
export function parseMarkdownText(text: string): Root {
  return processor.parse(text)
}

/** A node's markdown as written: the text between its start and end offsets. */
export function sourceOf(text: string, node: Root | RootContent): string {
  return text.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0)
}

/**
 * Whether a line is inside a fenced block with a language (```` ```markdown ````):
 * an example of the file's format, whose headings are no one's. With
 * `everyCode`, any code block (a bare fence, indented code): code, whose
 * checkboxes are no tasks.
 */
export function inFencedExample(nodes: readonly RootContent[], {everyCode = false} = {}): (line: number) => boolean {
  const spans = nodes.flatMap((node) =>
    node.type === 'code' && (everyCode || node.lang) && node.position ? [[node.position.start.line, lastLineOf(node.position)] as const] : []
  )
  return (line) => spans.some(([from, to]) => from <= line && line <= to)
}
