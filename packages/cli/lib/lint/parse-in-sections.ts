import type {Nodes, Root, RootContent} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {Options} from 'mdast-util-from-markdown'
import {visit} from 'unist-util-visit'

// micromark splices every block into one event list, which costs time
// quadratic in the document's size: a 0.5 MB CONTRACTS.md takes three times
// as long as two halves of it. A line that starts with `#` and a space at
// column 0 always starts a new top-level block, unless the text before it left
// a fenced code block or an HTML block open, so the document can be parsed
// section by section and the trees joined, giving the same tree as one parse.

/** Sections are at least this many characters; smaller documents are parsed in one go. */
export const defaultSectionSize = 4096

const lineEnding = /\r\n|\r|\n/g
const atxHeadingStart = /^#{1,6}(?:[ \t]|$)/
const frontmatterFence = /^(?:---|\+\+\+)[ \t]*$/
const fenceLine = /^ {0,3}(`{3,}|~{3,})([^\n\r]*)$/

interface Line {
  /** Offset of the line's first character. */
  offset: number
  text: string
}

function splitLines(value: string): Line[] {
  const lines: Line[] = []
  let start = 0
  lineEnding.lastIndex = 0
  let match: RegExpExecArray | null
  while ((match = lineEnding.exec(value))) {
    lines.push({offset: start, text: value.slice(start, match.index)})
    start = match.index + match[0].length
  }
  lines.push({offset: start, text: value.slice(start)})
  return lines
}

/**
 * Lines (by index) where a section may start: ATX headings at column 0,
 * outside frontmatter and outside fenced code that opens at column 0, at
 * least `size` characters apart. Only candidates: each is confirmed by
 * parsing the text before it.
 */
function candidateStarts(lines: Line[], size: number): number[] | null {
  let index = 0
  const first = (lines[0]?.text ?? '').replace(/^\uFEFF/, '')
  if (frontmatterFence.test(first)) {
    const closing = first.startsWith('-') ? /^---[ \t]*$/ : /^\+\+\+[ \t]*$/
    index = 1
    while (index < lines.length && !closing.test(lines[index]?.text ?? '')) index++
    // An unclosed frontmatter fence is no frontmatter at all; keep it whole.
    if (index === lines.length) return null
    index++
  }
  const starts: number[] = []
  let fence: string | null = null
  let previousStart = 0
  for (; index < lines.length; index++) {
    const line = lines[index] as Line
    if (fence) {
      const close = fenceLine.exec(line.text)
      if (close && line.text[0] === fence[0] && (close[1] ?? '').length >= fence.length && (close[2] ?? '').trim() === '') fence = null
      continue
    }
    const open = fenceLine.exec(line.text)
    if (open && line.text[0] === open[1]?.[0] && !(open[1]?.[0] === '`' && (open[2] ?? '').includes('`'))) {
      fence = open[1] ?? null
      continue
    }
    if (atxHeadingStart.test(line.text) && line.offset - previousStart >= size) {
      starts.push(index)
      previousStart = line.offset
    }
  }
  return starts
}

const fenceOpening = /^[ \t]*(`{3,}|~{3,})/
const fenceClosing = /^ {0,3}(`{3,}|~{3,})[ \t]*$/

/** Whether a parsed section ends in a block that the next line would continue. */
function endsOpen(section: Root, text: string): boolean {
  let node: Nodes | undefined = section.children.at(-1)
  while (node) {
    if (node.type === 'code' && node.position) {
      const source = text.slice(node.position.start.offset, node.position.end.offset)
      const open = fenceOpening.exec(source)
      if (open) {
        const marker = open[1] as string
        const lines = source.split(/\r\n|\r|\n/)
        const last = fenceClosing.exec(lines.at(-1) ?? '')
        const closed = lines.length > 1 && last !== null && last[1]?.[0] === marker[0] && (last[1] as string).length >= marker.length
        if (!closed) return true
      }
    }
    if (node.type === 'html' && node.position) {
      const closedComment = node.value.startsWith('<!--') && (node.value.split(/\r\n|\r|\n/).at(-1) ?? '').includes('-->')
      // Other HTML blocks run until a blank line: is there one before the section ends?
      const rest = text.slice(node.position.end.offset).replace(/^(?:\r\n|\r|\n)/, '')
      if (!closedComment && !/^[ \t]*(?:\r\n|\r|\n)/.test(rest)) return true
    }
    node = 'children' in node ? node.children.at(-1) : undefined
  }
  return false
}

function shift(tree: Root, lines: number, offset: number): void {
  if (lines === 0 && offset === 0) return
  visit(tree, (node) => {
    const position = node.position
    if (!position) return
    position.start.line += lines
    position.end.line += lines
    if (position.start.offset !== undefined) position.start.offset += offset
    if (position.end.offset !== undefined) position.end.offset += offset
  })
}

/**
 * Parse markdown like `fromMarkdown(value, options)` does, in sections of at
 * least `size` characters when the document is large, for time linear in its
 * size. Documents with definitions (which count across the whole document)
 * are parsed whole, and so is every document when `options` carries syntax
 * extensions other than frontmatter: callers check that (see
 * `sectionSafe` in fast-parse.ts).
 */
export function parseInSections(value: string, options: Options = {}, size: number = defaultSectionSize): Root {
  if (value.length < size * 2 || value.includes(']:')) return fromMarkdown(value, options)
  const lines = splitLines(value)
  const starts = candidateStarts(lines, size)
  if (!starts || starts.length === 0) return fromMarkdown(value, options)

  const children: RootContent[] = []
  let sectionLine = 0
  let section: Root | undefined
  let sectionText = ''
  const parseFrom = (fromLine: number, toLine: number): void => {
    const start = (lines[fromLine] as Line).offset
    const end = toLine < lines.length ? (lines[toLine] as Line).offset : value.length
    sectionText = value.slice(start, end)
    section = fromMarkdown(sectionText, options)
    sectionLine = fromLine
  }
  // micromark drops a byte order mark and counts offsets from after it.
  const bom = value.startsWith('\uFEFF') ? 1 : 0
  const keep = (): void => {
    if (!section) return
    if (sectionLine > 0) shift(section, sectionLine, (lines[sectionLine] as Line).offset - bom)
    children.push(...section.children)
  }

  let from = 0
  for (const next of [...starts, lines.length]) {
    parseFrom(from, next)
    // The section before a start must end closed; else the start belongs to it.
    // Points in the first section count from after a BOM: so does the text they index.
    const indexed = from === 0 && bom ? sectionText.slice(1) : sectionText
    if (next < lines.length && endsOpen(section as unknown as Root, indexed)) continue
    keep()
    from = next
  }
  const last = section as unknown as Root
  const end = last.position?.end
  return {
    type: 'root',
    children,
    position: {
      start: {line: 1, column: 1, offset: 0},
      end: end ? {line: end.line, column: end.column, offset: end.offset} : {line: 1, column: 1, offset: 0}
    }
  }
}
