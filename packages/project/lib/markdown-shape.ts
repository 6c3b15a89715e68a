import {parseContractHeading} from '@verification-tiers/contracts/gate-terms'

/**
 * What a markdown file holds, as its lines read without the parser (which is
 * what was too slow): what a message about a parse that ran out of time
 * names, so the person sees which of size, lists or nesting it was.
 */
export interface MarkdownShape {
  bytes: number
  /** ATX headings that read as contract headings (`### C-12: Name`, `### Contract: Name`). */
  contracts: number
  lists: number
  items: number
  /** The most lists and quotes a line is inside, counting its own. */
  depth: number
}

/** An ATX heading's text (`### C-1: Name ##` gives `C-1: Name`). */
const atxHeading = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
/** A list marker, and its kind (the bullet, or the delimiter of a number): items of another kind start another list. */
const listMarker = /([-*+]|\d{1,9}([.)]))(?=[ \t]|$)/y
const thematicBreak = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/
const fence = /^[ \t]*(`{3,}|~{3,})/

/** An open list item: where its marker is, where its content starts, its marker's kind. */
interface OpenItem {
  column: number
  content: number
  kind: string
}

/**
 * The shape of `text`, line by line: contract headings, lists and their
 * items (a list item indented to another's content is inside it; one at or
 * before its marker, of the same kind, is its sibling; text at the margin
 * ends the lists, but a lazy line), and the deepest nesting of lists and
 * quotes. Lines in fenced code and frontmatter count for nothing. It is what
 * the lines show, not what the parser builds: near enough to say which
 * markdown took the time.
 */
export function markdownShape(text: string): MarkdownShape {
  const shape: MarkdownShape = {bytes: Buffer.byteLength(text), contracts: 0, lists: 0, items: 0, depth: 0}
  const open: OpenItem[] = []
  let fenced: string | null = null
  const lines = text.split(/\r\n?|\n/)
  // Frontmatter (YAML's `---`, TOML's `+++`) is no markdown: its `  - item` lines are no list.
  const closer = lines[0] === '---' ? /^(?:---|\.\.\.)$/ : lines[0] === '+++' ? /^\+\+\+$/ : null
  const end = closer ? lines.findIndex((line, index) => index > 0 && closer.test(line)) : -1
  let blank = false
  for (const line of end === -1 ? lines : lines.slice(end + 1)) {
    // Quote markers first (each with the space after it): `> > - a` is in two quotes.
    let at = 0
    let quotes = 0
    for (;;) {
      let next = at
      while (line[next] === ' ' || line[next] === '\t') next++
      if (line[next] !== '>') break
      quotes++
      at = next + (line[next + 1] === ' ' ? 2 : 1)
    }
    const rest = line.slice(at)
    const opener = fence.exec(rest)?.[1]
    if (fenced !== null) {
      if (opener !== undefined && opener[0] === fenced[0] && opener.length >= fenced.length) fenced = null
      continue
    }
    if (opener !== undefined) fenced = opener
    if (rest.trim() === '') {
      blank = true
      continue
    }
    let column = at
    let index = 0
    for (; index < rest.length && (rest[index] === ' ' || rest[index] === '\t'); index++) column += rest[index] === '\t' ? 4 - (column % 4) : 1
    let markers = 0
    listMarker.lastIndex = index
    let marker = thematicBreak.test(rest) ? null : listMarker.exec(rest)
    while (marker) {
      const kind = marker[2] ?? marker[1]
      let sibling = false
      while (open.length > 0 && open.at(-1)!.content > column) {
        const item = open.pop()!
        sibling = item.column <= column && item.kind === kind
      }
      if (!sibling) shape.lists++
      shape.items++
      markers++
      const content = column + marker[0].length + 1
      open.push({column, content, kind})
      // A marker right after this one (`- - a`) opens a list inside this item.
      index += marker[0].length
      column += marker[0].length
      while (index < rest.length && (rest[index] === ' ' || rest[index] === '\t')) {
        column += rest[index] === '\t' ? 4 - (column % 4) : 1
        index++
      }
      listMarker.lastIndex = index
      marker = listMarker.exec(rest)
    }
    if (markers === 0) {
      const heading = atxHeading.exec(rest)
      if (heading && parseContractHeading(heading[1] ?? '') !== null) shape.contracts++
      // Text at the margin (its quote's) after a blank line, or a heading, fence or break there, ends the lists; else it is lazy, the item's.
      if (column === at && (blank || heading || opener !== undefined || thematicBreak.test(rest))) open.length = 0
    }
    blank = false
    shape.depth = Math.max(shape.depth, quotes + open.length)
  }
  return shape
}

/** A shape as a message shows it: `319779 bytes: 4000 contract headings, 4000 lists of 4000 items, nested at most 1 deep`. */
export function describeShape({bytes, contracts, lists, items, depth}: MarkdownShape): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
  return `${count(bytes, 'byte', 'bytes')}: ${count(contracts, 'contract heading', 'contract headings')}, ${count(lists, 'list', 'lists')} of ${count(items, 'item', 'items')}, lists and quotes nested at most ${depth} deep`
}
