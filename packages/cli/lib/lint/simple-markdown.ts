import type {Code, Heading, Html, List, ListItem, Paragraph, PhrasingContent, Root, RootContent, Yaml} from 'mdast'
import type {Point} from 'unist'

// Contract files are mostly a narrow kind of markdown: ATX headings, short
// paragraphs with `**Label:**`, inline code and links, one-line list items,
// fenced blocks, lint comments and YAML frontmatter. This reads exactly that
// kind, and gives the same tree micromark gives, many times faster; the first
// line or span outside it makes it answer `undefined`, and the caller parses
// the document with micromark instead. What is outside: indentation, tabs and
// trailing whitespace outside code, block quotes, setext headings, thematic
// breaks, indented code, HTML other than comments, lazy and multi-line list
// items, loose lists, and inline `\`, `&`, `<`, `_` at word edges, `*` other
// than `**strong**` between spaces, images, and links other than `[text](url)`.

/** Thrown inside, caught at the top: the document is outside the subset. */
class Outside extends Error {}

function outside(): never {
  throw new Outside()
}

interface Line {
  offset: number
  text: string
}

const atxHeading = /^(#{1,6}) (\S(?:.*\S)?)$/
const bulletItem = /^([-*+]) (.*)$/
const orderedItem = /^(\d{1,9})([.)]) (.*)$/
const itemMarker = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const fenceOpen = /^(`{3,}|~{3,})(.*)$/
const fenceClose = /^ {0,3}(`{3,}|~{3,})[ \t]*$/
// Lines that are thematic breaks or setext underlines, or could be.
const ruleLike = /^ {0,3}(?:(?:[-*_=][ \t]*)+)$/
// Content of a list item that would itself start a block.
const blockStartInItem = /^(?:[#>=~<|]|[-*+](?: |$)|\d{1,9}[.)](?: |$)|```|\[)/
const infoString = /^([^\s`\\&]+)(?: ([^\s\\&`][^\\&`]*))?$/
const punctuationAfterClose = new Set([' ', '\n', ',', '.', ':', ';', '!', '?', ')'])
const wordCharacter = /[\dA-Za-z]/

class Document {
  readonly lineStarts: number[]

  constructor(readonly value: string) {
    const starts = [0]
    for (let index = value.indexOf('\n'); index !== -1; index = value.indexOf('\n', index + 1)) starts.push(index + 1)
    this.lineStarts = starts
  }

  point(offset: number): Point {
    const starts = this.lineStarts
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] as number) <= offset) low = middle
      else high = middle - 1
    }
    return {line: low + 1, column: offset - (starts[low] as number) + 1, offset}
  }

  position(start: number, end: number) {
    return {start: this.point(start), end: this.point(end)}
  }
}

/** Inline content of `text`, which starts at `offset` in the document. */
function parseInline(document: Document, text: string, offset: number): PhrasingContent[] {
  const nodes: PhrasingContent[] = []
  let plainStart = 0
  let index = 0
  const plainText = (end: number): void => {
    if (end > plainStart) nodes.push({type: 'text', value: text.slice(plainStart, end), position: document.position(offset + plainStart, offset + end)})
  }
  // A construct from `index` to `end`: the plain text before it becomes a text node.
  const emit = (node: PhrasingContent, end: number): void => {
    plainText(index)
    node.position = document.position(offset + index, offset + end)
    nodes.push(node)
    index = end
    plainStart = end
  }
  while (index < text.length) {
    const character = text[index] as string
    if (character === '`') {
      let run = index
      while (text[run] === '`') run++
      const size = run - index
      let close = run
      let found = -1
      while (close < text.length) {
        const next = text.indexOf('`', close)
        if (next === -1) break
        let end = next
        while (text[end] === '`') end++
        if (end - next === size) {
          found = next
          break
        }
        close = end
      }
      if (found === -1) outside()
      let content = text.slice(run, found)
      if (content.includes('\n')) outside()
      if (content.length > 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1)
      else if (content.trim() === '' || content.startsWith(' ') !== content.endsWith(' ')) outside()
      emit({type: 'inlineCode', value: content}, found + size)
      continue
    }
    if (character === '*') {
      // `**strong**`: opened after a space or at the start, closed before a space, a
      // line end or closing punctuation, nothing else inside that could be markup.
      const before = index === 0 ? ' ' : (text[index - 1] as string)
      if (text[index + 1] !== '*' || (before !== ' ' && before !== '\n')) outside()
      const close = text.indexOf('**', index + 2)
      if (close === -1) outside()
      const inner = text.slice(index + 2, close)
      const after = close + 2 < text.length ? (text[close + 2] as string) : ' '
      if (inner === '' || /[*_`[\]\\&<!\n]/.test(inner) || inner.trim() !== inner || !punctuationAfterClose.has(after)) outside()
      emit({type: 'strong', children: [{type: 'text', value: inner, position: document.position(offset + index + 2, offset + close)}]}, close + 2)
      continue
    }
    if (character === '[') {
      const textEnd = text.indexOf('](', index + 1)
      if (textEnd === -1) outside()
      const label = text.slice(index + 1, textEnd)
      const urlEnd = text.indexOf(')', textEnd + 2)
      if (urlEnd === -1) outside()
      const url = text.slice(textEnd + 2, urlEnd)
      if (label === '' || url === '' || /[[\]*_`\\&<!\n]/.test(label) || label.trim() !== label || /[\s()<>\\&"'`*_[\]]/.test(url)) outside()
      emit({type: 'link', title: null, url, children: [{type: 'text', value: label, position: document.position(offset + index + 1, offset + textEnd)}]}, urlEnd + 1)
      continue
    }
    if (character === '_') {
      if (!wordCharacter.test(text[index - 1] ?? '') || !wordCharacter.test(text[index + 1] ?? '')) outside()
    } else if (character === '\\' || character === '&' || character === '<' || character === ']' || (character === '!' && text[index + 1] === '[')) {
      outside()
    }
    index++
  }
  plainText(text.length)
  return nodes
}

function paragraph(document: Document, lines: Line[]): Paragraph {
  const first = lines[0] as Line
  const last = lines.at(-1) as Line
  const start = first.offset
  const end = last.offset + last.text.length
  return {type: 'paragraph', children: parseInline(document, document.value.slice(start, end), start), position: document.position(start, end)}
}

function listItem(document: Document, line: Line, contentColumn: number): ListItem {
  const end = line.offset + line.text.length
  return {
    type: 'listItem',
    spread: false,
    checked: null,
    children: [paragraph(document, [{offset: line.offset + contentColumn, text: line.text.slice(contentColumn)}])],
    position: document.position(line.offset, end)
  }
}

interface ItemLine {
  kind: string
  start: number | null
  /** The number as written (`01` is not `1`). */
  number: string | null
  contentColumn: number
}

/** A one-line list item: its marker kind (`-`, `1.`, …), start number and content column. */
function readItem(text: string): ItemLine | undefined {
  const bullet = bulletItem.exec(text)
  const ordered = bullet ? null : orderedItem.exec(text)
  if (!bullet && !ordered) {
    // A marker alone or before a tab is an item too, one this does not read.
    if (itemMarker.test(text)) outside()
    return undefined
  }
  const content = (bullet ? bullet[2] : (ordered as RegExpExecArray)[3]) as string
  if (content === '' || content.startsWith(' ') || blockStartInItem.test(content) || ruleLike.test(content)) outside()
  if (bullet) return {kind: bullet[1] as string, start: null, number: null, contentColumn: 2}
  const match = ordered as RegExpExecArray
  return {kind: match[2] as string, start: Number(match[1]), number: match[1] as string, contentColumn: (match[1] as string).length + 2}
}

/**
 * The mdast tree micromark (with the frontmatter extension when `frontmatter`
 * is set) would give for `value`, or `undefined` when `value` is outside the
 * subset this reads.
 */
export function parseSimpleMarkdown(value: string, frontmatter: boolean): Root | undefined {
  // Line endings other than LF, NUL, and whitespace that markdown does not
  // count as whitespace but regular expressions do.
  if (/[\r\0\v\f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(value)) return undefined
  try {
    return parseLines(new Document(value), frontmatter)
  } catch (error) {
    if (error instanceof Outside) return undefined
    throw error
  }
}

function parseLines(document: Document, frontmatter: boolean): Root {
  const value = document.value
  const lines: Line[] = document.lineStarts.map((start, index) => {
    const next = document.lineStarts[index + 1]
    return {offset: start, text: value.slice(start, next === undefined ? value.length : next - 1)}
  })
  const children: RootContent[] = []
  let index = 0

  if (lines[0]?.text === '---') {
    if (!frontmatter) outside()
    let close = 1
    while (close < lines.length && lines[close]?.text !== '---') {
      if (/^---[ \t]+$/.test(lines[close]?.text ?? '')) outside()
      close++
    }
    if (close === lines.length) outside()
    const closing = lines[close] as Line
    const yamlNode: Yaml = {
      type: 'yaml',
      value: close === 1 ? '' : value.slice((lines[1] as Line).offset, closing.offset - 1),
      position: document.position(0, closing.offset + 3)
    }
    children.push(yamlNode)
    index = close + 1
  }

  let paragraphLines: Line[] = []
  let list: {node: List; kind: string} | undefined
  let blankSinceList = false

  const closeParagraph = (): void => {
    if (paragraphLines.length > 0) children.push(paragraph(document, paragraphLines))
    paragraphLines = []
  }
  const closeList = (): void => {
    list = undefined
  }
  const closeBlocks = (): void => {
    closeParagraph()
    closeList()
  }

  while (index < lines.length) {
    const line = lines[index] as Line
    const text = line.text

    if (text.trim() === '') {
      if (text !== '') outside()
      closeParagraph()
      if (list) blankSinceList = true
      index++
      continue
    }
    if (/^[ \t]/.test(text) || /[ \t]$/.test(text) || text.includes('\t') || ruleLike.test(text)) outside()

    const fence = fenceOpen.exec(text)
    if (fence) {
      const marker = fence[1] as string
      const info = fence[2] as string
      if (marker[0] === '`' && info.includes('`')) outside()
      const parts = info === '' ? undefined : infoString.exec(info)
      if (info !== '' && !parts) outside()
      closeBlocks()
      let close = index + 1
      while (close < lines.length) {
        const candidate = (lines[close] as Line).text
        const closing = fenceClose.exec(candidate)
        if (closing && closing[1]?.[0] === marker[0] && (closing[1] as string).length >= marker.length) {
          // Indented or followed by white space, it closes too; only the plain form is read here.
          if (closing[1] !== candidate) outside()
          break
        }
        close++
      }
      if (close === lines.length) outside()
      const closing = lines[close] as Line
      const code: Code = {
        type: 'code',
        lang: parts ? (parts[1] as string) : null,
        meta: parts?.[2] ?? null,
        value: close === index + 1 ? '' : value.slice((lines[index + 1] as Line).offset, closing.offset - 1),
        position: document.position(line.offset, closing.offset + closing.text.length)
      }
      children.push(code)
      index = close + 1
      continue
    }
    if (text.startsWith('<')) {
      if (!text.startsWith('<!--') || text.startsWith('<!-->') || text.startsWith('<!--->')) outside()
      closeBlocks()
      let close = index
      while (close < lines.length && !(lines[close] as Line).text.includes('-->', close === index ? 4 : 0)) close++
      if (close === lines.length) outside()
      const closing = lines[close] as Line
      const end = closing.offset + closing.text.length
      const html: Html = {type: 'html', value: value.slice(line.offset, end), position: document.position(line.offset, end)}
      children.push(html)
      index = close + 1
      continue
    }

    const heading = atxHeading.exec(text)
    if (heading) {
      const content = heading[2] as string
      if (/(?:^| )#+$/.test(content)) outside()
      closeBlocks()
      const start = line.offset + (heading[1] as string).length + 1
      const node: Heading = {
        type: 'heading',
        depth: (heading[1] as string).length as Heading['depth'],
        children: parseInline(document, content, start),
        position: document.position(line.offset, line.offset + text.length)
      }
      children.push(node)
      index++
      continue
    }
    // Any other heading-like line (`#  two spaces`, `#` alone) is outside.
    if (/^#{1,6}(?:[ \t]|$)/.test(text)) outside()
    if (text.startsWith('>') || text.startsWith('[')) outside()

    const item = readItem(text)
    if (item) {
      // An ordered item not starting at 1 cannot interrupt a paragraph: it would continue it.
      const interrupts = paragraphLines.length > 0 || (list !== undefined && !blankSinceList && list.kind !== item.kind)
      if (interrupts && item.number !== null && item.number !== '1') outside()
      closeParagraph()
      if (list && list.kind === item.kind && blankSinceList) outside()
      if (!list || list.kind !== item.kind) {
        const node: List = {type: 'list', ordered: item.start !== null, start: item.start, spread: false, children: [], position: document.position(line.offset, line.offset)}
        children.push(node)
        list = {node, kind: item.kind}
      }
      const entry = listItem(document, line, item.contentColumn)
      list.node.children.push(entry)
      ;(list.node.position as NonNullable<List['position']>).end = document.point(line.offset + text.length)
      blankSinceList = false
      index++
      continue
    }

    // Paragraph text: a line right after a list item would continue it lazily.
    if (list && !blankSinceList) outside()
    closeList()
    paragraphLines.push(line)
    index++
  }
  closeBlocks()
  return {type: 'root', children, position: document.position(0, value.length)}
}
