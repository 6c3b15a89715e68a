import type {Heading, Nodes, Root, RootContent} from 'mdast'
// micromark made linear in the number of lists (see `contracts/lib/edit-map.ts`), before anything parses.
import '@verification-tiers/contracts/edit-map'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {checkMarkdownDepth} from './depth.js'
import {ProjectError} from './errors.js'
import {checkSliceId, checkUniqueSliceIds, oneLine, placeOf, readTierText} from './graph.js'
import type {FolderGraph, GraphProblem, GraphRef, GraphSlice, TierText} from './graph.js'

const processor = unified().use(remarkParse).use(remarkFrontmatter)

/** The fields of a slice, by meaning: each label as people write it (any case, bold or plain). */
type SliceField = 'contracts' | 'tier' | 'verification' | 'dependsOn' | 'humanCheck'

const fieldLabels: ReadonlyMap<string, SliceField> = new Map([
  ['contracts', 'contracts'],
  ['contract', 'contracts'],
  ['contract ids', 'contracts'],
  ['tier', 'tier'],
  ['verification tier', 'tier'],
  ['verification', 'verification'],
  ['depends on', 'dependsOn'],
  ['dependencies', 'dependsOn'],
  ['deps', 'dependsOn'],
  ['human check', 'humanCheck']
])

// `Label: value` at the start of a line, with an optional task box before it.
const labelLine = /^\s*(?:\[[ xX]\]\s*)?([A-Za-z][A-Za-z ]{0,30}?)\s*:\s*(.*)$/
// A slice heading: an optional `Slice` word, an id (with a digit), then `:`, `.`, a dash or a space, and the name.
const sliceHeading = /^(?:slice\s+)?([\p{L}\p{N}][\p{L}\p{N}_.-]*?)(?:\s*[:.](?:\s+|$)|\s+[—–-]{1,2}\s+|\s+|$)(.*)$/iu

/** One field of a slice as written. */
interface Field {
  field: SliceField
  value: string
  line: number | null
}

/** What a GRAPH.md gives: its slices, and what it saw but could not read as one. */
export interface MarkdownGraph {
  slices: GraphSlice[]
  problems: GraphProblem[]
}

/**
 * Slices of a `GRAPH.md`, read as a tree: a heading at any level is a slice
 * when its section (up to the next heading) holds slice fields
 * (`Contracts:`, `Tier:`, `Verification:`, `Depends on:`, `Human check:`),
 * as list items or lines, bold or plain, in any case. Its first word is the
 * slice id (`S-01: Name`, `s1f. name`, `Slice 3 — Name`). Code, HTML and
 * comments are never read as fields.
 *
 * A `Tier:` gives the tier and, in prose after it, a `Human check:`; one that
 * says the check was retired asks no one (tier `auto`) and keeps its reason.
 * `Verification:` is the tier when it starts with one, else what the tests
 * prove. `Contracts:` text is kept whole: every known contract in it is the
 * slice’s (see `contractsText`).
 */
export function readGraphMarkdown(text: string, file: string): MarkdownGraph {
  const tree = processor.parse(text) as Root
  checkMarkdownDepth(tree, file)
  const slices: GraphSlice[] = []
  const problems: GraphProblem[] = []
  const headings: Array<{node: Heading; fields: Field[]}> = []
  let current: {node: Heading; fields: Field[]} | null = null
  const children = tree.children
  for (const [index, node] of children.entries()) {
    if (node.type === 'heading') {
      current = {node, fields: []}
      headings.push(current)
    } else if (current) {
      for (const field of fieldsOf(node, children[index + 1])) current.fields.push(field)
    }
  }
  const unread: Array<{node: Heading; token: string}> = []
  for (const {node, fields} of headings) {
    const title = oneLine(textOf(node))
    const line = node.position?.start.line ?? null
    const match = sliceHeading.exec(title)
    const token = match?.[1] ?? ''
    if (fields.length === 0) {
      if (/\d/.test(token)) unread.push({node, token})
      continue
    }
    if (!/\d/.test(token)) {
      problems.push({
        file,
        line,
        message: `Unexpected slice fields under the heading ${JSON.stringify(title)}, which has no slice id, expected a heading such as \`### S-01: Name\``
      })
      continue
    }
    const id = checkSliceId(token, placeOf(file, line))
    slices.push(sliceOf(id, (match?.[2] ?? '').trim() || id, line, fields, file))
  }
  checkUniqueSliceIds(slices, file)
  // A heading with an id of the slices’ own shape but no fields: a slice the reader cannot read.
  const shapes = new Set(slices.map((slice) => idShape(slice.id)))
  for (const {node, token} of unread) {
    if (!shapes.has(idShape(token))) continue
    problems.push({
      file,
      line: node.position?.start.line ?? null,
      message: `Unexpected heading ${JSON.stringify(oneLine(textOf(node)))} without slice fields, expected \`Contracts:\`, \`Tier:\`, \`Verification:\` or \`Depends on:\` under a slice heading`
    })
  }
  if (slices.length === 0) {
    problems.push({
      file,
      line: null,
      message:
        'Unexpected graph without slices, expected slice headings such as `### S-01: Name` with `Contracts:`, `Tier:`, `Verification:` or `Depends on:` fields'
    })
  }
  return {slices, problems}
}

/** A `GRAPH.md` as a folder’s graph. */
export function markdownGraph(text: string, file: string): FolderGraph {
  return {from: 'GRAPH.md', file, ...readGraphMarkdown(text, file)}
}

/** A slice from its fields; a `Tier:` that is no tier is a `ProjectError`. */
function sliceOf(id: string, name: string, line: number | null, fields: Field[], file: string): GraphSlice {
  const stated: TierText[] = []
  const contractsText: GraphRef[] = []
  const verification: string[] = []
  const humanChecks: string[] = []
  for (const field of fields) {
    if (field.field === 'contracts') {
      contractsText.push({text: field.value, line: field.line})
    } else if (field.field === 'tier') {
      const read = readTierText(field.value)
      if (!read) {
        throw new ProjectError(
          placeOf(file, field.line),
          `Unexpected slice tier \`${oneLine(field.value)}\` for ${id}, expected \`auto\` or \`verify\`, then any words`
        )
      }
      stated.push(read)
    } else if (field.field === 'verification') {
      // `Verification: auto` states the tier; other words say what the tests prove.
      const read = readTierText(field.value)
      if (read && read.retired === null) stated.push(read)
      else if (oneLine(field.value)) verification.push(oneLine(field.value))
    } else if (field.field === 'humanCheck') {
      if (oneLine(field.value)) humanChecks.push(oneLine(field.value))
    }
  }
  // Two tiers stated: the higher one holds, as a check is never dropped by a second line.
  const verify = stated.find((one) => one.tier === 'verify')
  const tier = verify ?? stated[0] ?? null
  const retired = verify ? null : (stated.find((one) => one.retired !== null)?.retired ?? null)
  const humanCheck = retired ? null : [tier?.humanCheck ?? null, ...humanChecks].filter((one) => one !== null).join(' ') || null
  return {
    id,
    name,
    line,
    contracts: [],
    contractsText,
    tier: tier?.tier ?? null,
    humanCheck,
    retired,
    verification: verification.join(' ') || null
  }
}

/**
 * The slice fields one block of a section holds: each list item that starts
 * with a label (its lines after it are its value), and each line of a
 * paragraph that starts with one (the lines up to the next label are its
 * value). An empty `Contracts:` line takes the list right after it.
 */
function fieldsOf(node: RootContent, next: RootContent | undefined): Field[] {
  if (node.type === 'list') {
    return node.children.flatMap((item) => {
      const field = readLabel(textOf(item))
      return field ? [{...field, line: item.position?.start.line ?? null}] : []
    })
  }
  if (node.type !== 'paragraph') return []
  const fields: Field[] = []
  const start = node.position?.start.line ?? null
  for (const [offset, line] of textOf(node).split('\n').entries()) {
    const field = readLabel(line)
    if (field) fields.push({...field, line: start === null ? null : start + offset})
    else if (fields.length > 0) fields.at(-1)!.value += '\n' + line
  }
  const last = fields.at(-1)
  if (last?.field === 'contracts' && oneLine(last.value) === '' && next?.type === 'list') last.value = textOf(next)
  return fields
}

/** The slice field a text starts with, and its value (the rest of the text). */
function readLabel(text: string): Omit<Field, 'line'> | null {
  const newline = text.indexOf('\n')
  const first = newline === -1 ? text : text.slice(0, newline)
  const match = labelLine.exec(first)
  const field = match ? fieldLabels.get(oneLine(match[1]).toLowerCase()) : undefined
  if (!match || !field) return null
  return {field, value: match[2] + (newline === -1 ? '' : text.slice(newline))}
}

/** The text of a node as a person reads it: markup gone, blocks on lines of their own, code and HTML left out. */
function textOf(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value
  if (node.type === 'break') return '\n'
  if (node.type === 'code' || node.type === 'html' || !('children' in node)) return ''
  const block = node.type === 'list' || node.type === 'listItem' || node.type === 'blockquote' || node.type === 'root'
  return (node.children as Nodes[]).map(textOf).join(block ? '\n' : '')
}

/** An id’s shape: its letters before the first digit, in lower case, and whether a hyphen follows them (`s1f` and `s0a` share one). */
function idShape(id: string): string {
  return (/^\D*/.exec(id)?.[0] ?? '').toLowerCase()
}
