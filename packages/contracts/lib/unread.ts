import type {Code, Html, Nodes, Parents, Root} from 'mdast'
import {toString} from 'mdast-util-to-string'
import type {Position} from 'unist'
import {inlineCode} from './inline-code.js'
import {parseSliceHeading} from './heading.js'
import {splitAtLineEndings, withoutByteOrderMark} from './lines.js'
import type {Contract, ContractProblem} from './types.js'

/**
 * A line a person reads as a contract heading that the reader did not read
 * as the start of a contract: markup around or above it swallowed it.
 */
export interface UnreadContract {
  /** The heading as written: the line from its first `#`, trimmed. */
  text: string
  /** The line, from its first `#` to its end. */
  place: Position
  /** Why it was not read, as a message says it: `inside an HTML block`. */
  reason: string
  /** What to do so the reader sees it: `add a blank line between the HTML and the heading`. */
  fix: string
}

// Dashes people put in ids: every Unicode dash punctuation, and the minus sign.
const dash = '[\\p{Pd}\\u2212]'
// An id of letters and digits (`C-02`, `C2`, `AUTH-3`, `C‑02`), then what ends it: without a
// dash only a colon or period (`C2: Name`), so `H2 Title` or `MP3 support` is not an id.
// Emphasis, code or a link may wrap the id (`**C-02**: Name`).
const idHeading = new RegExp(
  `^[*_\`[]*\\p{L}[\\p{L}\\p{N}_]*?(?:${dash}\\s*\\p{N}[\\p{L}\\p{N}]*[*_\`\\]]*(?:[\\s:.(]|$)|\\p{N}+[*_\`\\]]*\\s*[:.](?:\\s|$))`,
  'u'
)
// `Contract: Name`, in any case, with a full-width colon too.
const namedHeading = /^[*_`]*contract[*_`]*\s*[:：][*_`]*\s*\S/iu
// What may stand before the `#` on a line and still leave a heading to the eye: indentation
// (non-breaking and invisible spaces too), quote markers, list markers, HTML tags and the openers
// of HTML blocks (`<!--`, `<?`, `<![CDATA[`, `<!DOCTYPE`), and a code fence's opener, in any order.
const linePrefix = /^(?:[\s\u200b-\u200d\u2060]+|>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])|<!--|<\?|<!\[CDATA\[|<![A-Za-z]+|<[^<>\n]*>|`{3,}|~{3,})*/u
/**
 * Whether the text after a heading's marks reads as a contract's: an id
 * (`C-02: Name`, `C2: Name`) or `Contract: Name`.
 */
function isContractHeadingSubject(subject: string): boolean {
  return idHeading.test(subject) || namedHeading.test(subject)
}

// Full-width `＃` reads as `#` to the eye.
const headingMarks = /^([#\uff03]+)([\s\u200b-\u200d\u2060]*)/u

/** An unread heading as the problem the reader reports: the gate and `no-hidden-contract` say it alike. */
export function unreadHeadingProblem(unread: UnreadContract): ContractProblem {
  return {kind: 'unread-heading', subject: unread.text, part: 'field', actual: unread.reason, expected: unread.fix, place: unread.place}
}

/** A line that reads as a contract heading: where its `#` starts, and how it is written. */
export interface HeadingLine {
  line: number
  /** Offset of the `#` in the source. */
  start: number
  end: number
  text: string
  /** What stands before the `#`, as written. */
  prefix: string
  marks: string
  space: string
}

/**
 * Every line that a person reads as a contract heading (`#` marks, then an
 * id such as `C-02`, `AUTH-3` or `C2:`, or `Contract: Name`, possibly behind
 * indentation, list or quote markers, or HTML on the same line) that is not
 * the heading of one of `contracts`, with why markdown did not make it one.
 *
 * `text` is the document `tree` was parsed from; `contracts` what the reader
 * read from that tree. A closed code fence with a language (```` ```markdown
 * ````) shows an example and is skipped; anything else that hides a heading
 * is reported, a closed HTML comment included, so nothing is hidden silently.
 */
export function findUnreadContracts(text: string, tree: Root, contracts: readonly Contract[]): UnreadContract[] {
  const source = withoutByteOrderMark(text)
  const read = new Set(contracts.map((contract) => contract.headingPosition.start.line))
  return unreadOf(headingLines(source, read), source, tree, contracts)
}

/** Of heading lines, those markdown did not make a heading that is read, with why, at their place. */
function unreadOf(headings: readonly HeadingLine[], source: string, tree: Root, contracts: readonly Contract[] | null): UnreadContract[] {
  const found: UnreadContract[] = []
  for (const heading of headings) {
    const why = explain(heading, source, tree, contracts)
    if (!why) continue
    found.push({
      text: heading.text,
      // The line starts where what stands before the `#` starts: its columns are counted from there.
      place: {
        start: {line: heading.line, column: heading.prefix.length + 1, offset: heading.start},
        end: {line: heading.line, column: heading.prefix.length + heading.end - heading.start + 1, offset: heading.end}
      },
      ...why
    })
  }
  return found
}

/**
 * Every line that a person reads as a heading of `shape` (a tool's unit:
 * `### User Story 2`, `### Requirement 3`) that markdown made no heading at
 * the top level of the document, with why: behind a list or quote marker,
 * HTML or indentation on its line, inside a comment, an HTML block or an
 * unclosed fence, in a paragraph. A heading markdown made at the top level
 * is its tool reader's to read; a closed fence with a language shows an
 * example and is skipped, as for contracts.
 */
export function findHiddenHeadings(text: string, tree: Root, shape: HeadingShape): UnreadContract[] {
  const source = withoutByteOrderMark(text)
  return unreadOf(headingLines(source, noLines, shape), source, tree, null)
}

/** Lines of the source that read as headings of `shape` (contract headings unless told), but for the lines `skip` holds (line numbers). */
export function headingLines(source: string, skip: ReadonlySet<number> = noLines, shape: HeadingShape = contractHeadingShape): HeadingLine[] {
  const found: HeadingLine[] = []
  let line = 0
  // Each line, up to its line ending as markdown counts them: LF, CRLF, or a lone CR.
  for (const match of source.matchAll(/([^\r\n]*)(?:\r\n?|\n|$)/g)) {
    line++
    const heading = skip.has(line) ? null : readHeadingLine(match[1], line, match.index, shape)
    if (heading) found.push(heading)
  }
  return found
}

const noLines: ReadonlySet<number> = new Set()

/**
 * What a heading of one kind reads as, to the eye: `hint`, a cheap test a
 * whole line passes when it may hold one; `subject`, the text after its `#`
 * marks (`C-02: Name` for a contract, `User Story 2` for a spec-kit story).
 */
export interface HeadingShape {
  hint(line: string): boolean
  subject(text: string): boolean
}

/** A contract heading: an id (`C-02: Name`, `C2: Name`) or `Contract: Name`; no hint, the subject decides. */
const contractHeadingShape: HeadingShape = {hint: () => true, subject: isContractHeadingSubject}

function readHeadingLine(value: string, line: number, lineStart: number, shape: HeadingShape): HeadingLine | null {
  // A heading has a `#` (or a full-width `＃`), and passes its shape's hint.
  if (!/[#\uff03]/u.test(value) || !shape.hint(value)) return null
  const prefix = linePrefix.exec(value)?.[0] ?? ''
  const rest = value.slice(prefix.length)
  const marks = headingMarks.exec(rest)
  if (!marks) return null
  const subject = rest.slice(marks[0].length)
  if (!shape.subject(subject)) return null
  // What closes the markup around it (`-->`, `</summary>`) is not part of the heading.
  const trimmed = rest.replace(/(?:\s*(?:-->|<\/[^<>\n]*>))*\s*$/, '')
  return {
    line,
    start: lineStart + prefix.length,
    end: lineStart + prefix.length + trimmed.length,
    text: trimmed,
    prefix,
    marks: marks[1],
    space: marks[2]
  }
}

/**
 * Why markdown did not make the line a contract heading, or `null` when it
 * is one after all; with `contracts` `null`, any heading at the top level is.
 */
function explain(heading: HeadingLine, source: string, tree: Root, contracts: readonly Contract[] | null): {reason: string; fix: string} | null {
  const path = blocksAt(tree, heading.line)
  const leaf = path[path.length - 1]
  const containers = path.filter((node) => node.type === 'listItem' || node.type === 'blockquote')
  if (!leaf || leaf.type === 'root' || leaf.type === 'list' || leaf.type === 'listItem' || leaf.type === 'blockquote') {
    return {reason: 'that markdown does not read as a heading', fix: 'put the heading on a line of its own'}
  }
  switch (leaf.type) {
    case 'html':
      // Markup that opens on the heading’s own line (`<summary>### C-02`), other than a comment.
      if (leaf.position!.start.line === heading.line && heading.prefix.includes('<') && !leaf.value.startsWith('<!--')) {
        return {reason: 'after HTML on the same line', fix: 'put the heading on a line of its own'}
      }
      return onceFor(htmlReasons, leaf, htmlReason)
    case 'code':
      return inCode(leaf, heading, source)
    case 'yaml':
      return {reason: 'inside the frontmatter', fix: 'move the heading after the closing `---`'}
    case 'heading': {
      const outer = containers[0]
      if (outer?.type === 'listItem') return {reason: 'inside a list item', fix: 'move the heading out of the list (no list marker)'}
      if (outer?.type === 'blockquote') return {reason: 'inside a block quote', fix: 'move the heading out of the quote (no `>`)'}
      return contracts === null ? null : atTopLevel(leaf, tree, source, contracts)
    }
    default:
      return inText(heading)
  }
}

/** Block nodes from the root down to the innermost one holding `line`. */
function blocksAt(tree: Root, line: number): Nodes[] {
  const path: Nodes[] = [tree]
  let node: Nodes = tree
  // A loop, not recursion: quotes and lists can nest thousands deep.
  for (;;) {
    if (!('children' in node) || node.type === 'heading' || node.type === 'paragraph' || node.type === 'table') return path
    // Of those that hold it, the one starting last: a block may end on the line of the next one (a list item
    // past the next one's marker, a fence left open in a list at the first column of the line after it). Of
    // two starting together, the first: a setext heading after link definitions starts where they do.
    let child: Nodes | undefined
    for (const item of (node as Parents).children) {
      const at = item.position
      if (at && at.start.line <= line && line <= at.end.line && (!child || at.start.line > child.position!.start.line)) child = item
    }
    if (!child) return path
    path.push(child)
    node = child
  }
}

// What a block says of every heading inside it, worked out once per block: a file may hide thousands
// of headings in one unclosed comment or fence, and each look is over the whole block. 20,000 headings
// (220 KB) in an unclosed comment took 1,885 ms without, 25 ms with; in an unclosed fence 13,429 ms and 59 ms.
const htmlReasons = new WeakMap<Html, {reason: string; fix: string}>()
const fences = new WeakMap<Code, {fence: string; closed: boolean} | null>()

/** What `make` gives for `node`, made the first time it is asked for. */
function onceFor<Node extends object, Value>(memo: WeakMap<Node, Value>, node: Node, make: (node: Node) => Value): Value {
  if (!memo.has(node)) memo.set(node, make(node))
  return memo.get(node) as Value
}

function htmlReason(node: Html): {reason: string; fix: string} {
  const value = node.value
  if (value.startsWith('<!--')) {
    if (!value.includes('-->')) return {reason: 'inside an unclosed HTML comment', fix: 'close the comment with `-->` above it'}
    return {reason: 'inside an HTML comment', fix: 'move the heading out of the comment, or delete the contract'}
  }
  // Blocks that run to their closing marker, blank lines or not.
  const raw = /^<(script|pre|style|textarea)(?=[\s>]|$)/i.exec(value)
  if (raw) {
    const tag = raw[1].toLowerCase()
    if (!new RegExp(`</${tag}>`, 'i').test(value)) return {reason: `inside an unclosed \`<${tag}>\``, fix: `close it with \`</${tag}>\` above it`}
    return {reason: `inside a \`<${tag}>\` block`, fix: `move the heading out of the \`<${tag}>\``}
  }
  const marked = [
    {open: '<?', close: '?>', name: 'processing instruction'},
    {open: '<![CDATA[', close: ']]>', name: 'CDATA section'},
    {open: '<!', close: '>', name: 'declaration'}
  ].find((kind) => value.startsWith(kind.open))
  if (marked && !value.includes(marked.close, marked.open.length)) {
    return {reason: `inside an unclosed HTML ${marked.name}`, fix: `close it with \`${marked.close}\` above it`}
  }
  return {reason: 'inside an HTML block', fix: 'add a blank line between the HTML and the heading'}
}

function inCode(node: Code, heading: HeadingLine, source: string): {reason: string; fix: string} | null {
  const known = onceFor(fences, node, (code) => fenceOf(code, source))
  if (!known) return {reason: 'in indented code', fix: 'remove the indentation'}
  // On the fence's own line, the heading is the fence's info string, whatever follows.
  if (node.position!.start.line === heading.line)
    return {reason: 'after a code fence on the same line', fix: 'put the heading on a line of its own, outside the fence'}
  if (!known.closed) {
    return {reason: 'inside an unclosed code fence', fix: `close the fence with ${inlineCode(known.fence)} above it`}
  }
  // A closed fence with a language shows an example, and so does a template of a heading in any fence.
  if (node.lang || isTemplate(heading)) return null
  return {reason: 'inside a code block', fix: 'move the heading out of the fence'}
}

/** A code block's opening fence and whether it is closed; `null` for indented code. */
function fenceOf(node: Code, source: string): {fence: string; closed: boolean} | null {
  const block = source.slice(node.position!.start.offset!, node.position!.end.offset!)
  // A fenced block starts at its fence; indented code starts at its indentation.
  const opening = /^(`{3,}|~{3,})/.exec(block)
  return opening ? {fence: opening[1], closed: isClosed(block, opening[1])} : null
}

/** A heading whose name is a placeholder (`### Contract: {Name}`, `### C-01: <name>`) shows how to write one. */
function isTemplate(heading: HeadingLine): boolean {
  return /^#+\s*[^:.\s]+\s*[:.]?\s*(?:\{[^}]*\}|<[^>]*>)/u.test(heading.text.replace(/^#+\s*contract\s*[:：]/iu, '# x:'))
}

/** Whether a fenced code block’s source ends with a closing fence (it runs to the end of the file otherwise). */
function isClosed(block: string, fence: string): boolean {
  const lines = splitAtLineEndings(block)
  if (lines.length < 2) return false
  const last = lines[lines.length - 1]
  // The closing fence may stand behind the markers of the quotes and lists it is in.
  const closing = /(`{3,}|~{3,})[ \t]*$/.exec(last)
  if (!closing) return false
  const before = last.slice(0, closing.index)
  return closing[1][0] === fence[0] && closing[1].length >= fence.length && /^[\s>]*$/.test(before)
}

/** A line that is part of a paragraph (or table): the first thing that keeps it from being a heading. */
function inText(heading: HeadingLine): {reason: string; fix: string} {
  if (/</.test(heading.prefix)) return {reason: 'after HTML on the same line', fix: 'put the heading on a line of its own'}
  if (/[^ \t>*+\-\d.)]/.test(heading.prefix) || /[^ \t]/.test(heading.space)) {
    return {reason: 'with an invisible or non-breaking space around the `#`', fix: 'use plain spaces, or none before the `#`'}
  }
  if (heading.marks.includes('\uff03')) return {reason: 'with a full-width `＃`', fix: 'write `#` as a plain `#`'}
  if (heading.space === '') return {reason: 'without a space after the `#`', fix: 'add a space after the `#`'}
  if (heading.marks.length > 6) return {reason: 'with more than six `#`', fix: 'use one to six `#`'}
  if (/^(?: {4}|\s*\t)/.test(heading.prefix.replace(/^(?:[ \t]*(?:>|[-*+]|\d+[.)]))+/, ''))) {
    return {reason: 'indented as part of a paragraph', fix: 'remove the indentation and add a blank line above it'}
  }
  return {reason: 'inside a paragraph', fix: 'put the heading on a line of its own, after a blank line'}
}

/**
 * A heading at the top level that the reader did not take: reported when its
 * own section holds contract fields and no contract, so a heading the reader
 * rejects by design (a slice around contracts, the frontmatter contract’s
 * title) is not; an id with an odd dash is named.
 */
function atTopLevel(node: Extract<Nodes, {type: 'heading'}>, tree: Root, source: string, contracts: readonly Contract[]): {reason: string; fix: string} | null {
  const children = tree.children
  const index = children.indexOf(node)
  let end = children.length
  let firstSubheading = -1
  for (let next = index + 1; next < children.length; next++) {
    const sibling = children[next]
    if (sibling.type !== 'heading') continue
    if (sibling.depth <= node.depth) {
      end = next
      break
    }
    if (firstSubheading === -1) firstSubheading = next
  }
  const from = node.position!.end.line
  const to = end > index + 1 ? children[end - 1].position!.end.line : from
  // A section around contracts is a slice or a group, not a contract.
  if (contracts.some((contract) => contract.headingPosition.start.line > from && contract.headingPosition.start.line <= to)) return null
  const body = children.slice(index + 1, firstSubheading === -1 ? end : firstSubheading)
  // The title of a contract read from frontmatter repeats it.
  const title = toString(node)
  const frontmatter = tree.children[0]?.type === 'yaml' ? tree.children[0].position!.end.line : 0
  if (
    contracts.some(
      (contract) =>
        contract.headingPosition.start.line <= frontmatter &&
        ((contract.id !== null && title.includes(contract.id)) || (contract.name !== '' && title.includes(contract.name)))
    )
  ) {
    return null
  }
  // Fields under a subheading belong to that part (a summary’s `## Verification`), not to this heading.
  // The source, not the text: a list’s items keep their lines.
  const bodyText = body.length === 0 ? '' : source.slice(body[0].position!.start.offset, body[body.length - 1].position!.end.offset)
  if (!fieldLabel.test(bodyText)) return null
  // A slice states a tier for the contracts it lists.
  if (parseSliceHeading(title) || contractsLabel.test(bodyText)) return null
  const idDash = new RegExp(`^\\p{L}[\\p{L}\\p{N}_]*?(${dash})`, 'u').exec(title.trim())
  if (idDash && idDash[1] !== '-') {
    return {reason: 'with an unusual dash in its id', fix: 'write the id with a plain hyphen `-`'}
  }
  return {reason: 'that the reader does not recognise', fix: 'write it as `### C-01: Name` or `### Contract: Name`'}
}

// A tier, criteria or steps label, bold or plain, in any case.
const fieldLabel = /(?:^|\n)[\s>*_+\-\d.)]*(?:verification|tier|acceptance\s+criteria|criteria|steps(?:\s+to\s+verify)?)[*_\s]*:/i
// The list of a slice’s contracts.
const contractsLabel = /(?:^|\n)[\s>*_+\-\d.)]*contracts[*_\s]*:/i
