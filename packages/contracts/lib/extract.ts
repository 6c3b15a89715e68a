import {appendAll} from './append.js'
import type {Code, Heading, Nodes, Root, RootContent} from 'mdast'
import {toString} from 'mdast-util-to-string'
import type {Point, Position} from 'unist'
import type {VFile} from 'vfile'
import {isFenced, readBlockFields} from './block.js'
import {isListField} from './fields.js'
import {dialectOf, fenceDialects, frontmatterDialects, paragraphDialects} from './dialects/index.js'
import type {FrontmatterContract} from './frontmatter.js'
import {contractLabel, foldContractName, normalizeContractId, parseSliceHeading, readHeadingText} from './heading.js'
import {splitAtLineEndings} from './lines.js'
import {createLocator} from './locate.js'
import {readFollowing} from './following.js'
import type {Following} from './following.js'
import {inlineItem} from './items.js'
import {readParagraphFields} from './paragraph.js'
import type {ParagraphReading} from './paragraph.js'
import {findUnreadContracts, unreadHeadingProblem} from './unread.js'
import {effectiveTier, readTier} from './tier.js'
import type {Contract, ContractAnalysis, ContractField, ContractProblem, Dialect, FieldKey, SliceHeading} from './types.js'

/** How to read a document’s contracts. */
export interface ReadOptions {
  /**
   * Contract ids or names as a slice graph lists them: a heading whose id or
   * whole text is one of them (case and surrounding space ignored, dashes
   * folded) starts a contract, even with no fields and no id.
   */
  names?: Iterable<string>
  /**
   * Whether a field besides Acceptance Criteria and Steps heads items (a
   * tool’s own label, such as spec-kit’s `Acceptance Scenarios`): every list
   * after it is read as its items, and tables and quotes are its unread
   * text, as under Acceptance Criteria. Asked once a label’s list is read.
   */
  holdsItems?: (field: ContractField) => boolean
}

/** Whether a field, where it is its contract's own, makes its heading a contract. */
function marksContract(field: ContractField): boolean {
  return dialectOf(field.dialect).marksContract(field)
}

/** A heading and the blocks after it up to the next heading, with the fields they hold. */
interface Part {
  heading: Heading | null
  position: Position | null
  depth: number
  text: string
  /** `ID: Name` or `Contract: Name`. */
  shape: {id: string | null; name: string} | null
  named: boolean
  /** Starts with an id of any kind (`s1f. Name`): a heading above it groups. */
  idLike: boolean
  slice: SliceHeading | null
  fields: ContractField[]
  /** Some field of its own blocks marks a contract (fields in a fence of markdown or code do not). */
  marks: boolean
  end: Point | null
  /** The index of its first block after the heading. */
  from: number
  /** Whether a paragraph of its blocks holds labels. */
  labelled: boolean
  /** The field of its last label that still takes items at its end: the blocks of a subsection after it may be its. */
  open: ContractField | null
}

/** A contract being read: its section runs until a heading of the same or higher rank, or the next contract’s. */
interface Draft {
  id: string | null
  name: string
  depth: number
  start: Point
  end: Point
  headingPosition: Position
  sliceHeading: SliceHeading | null
  fields: ContractField[]
  frontmatter: boolean
  /** The field that takes the items of a subsection’s first blocks (`#### Edge cases`, then a list), if any. */
  open: ContractField | null
}

// One analysis per tree and names, shared by every rule that lints it.
// An analysis made without the file’s text is redone when the text comes.
const cache = new WeakMap<Root, {analysis: ContractAnalysis; withSource: boolean; names: string; holdsItems: ReadOptions['holdsItems']}>()

/**
 * Every contract in a document, with positions for every field and item.
 * The result is cached per tree (and names): call it from as many rules as you like.
 */
export function extractContracts(tree: Root, file?: VFile, options?: ReadOptions): Contract[] {
  return analyzeContracts(tree, file, options).contracts
}

/** Contracts plus the problems that kept parts of them from being read (bad YAML, wrong field types, conflicting tiers). */
export function analyzeContracts(tree: Root, file?: VFile, options: ReadOptions = {}): ContractAnalysis {
  const names = namesOf(options.names ?? [])
  const withSource = file?.value !== undefined
  const cached = cache.get(tree)
  if (cached && cached.names === names.key && cached.holdsItems === options.holdsItems && (cached.withSource || !withSource)) return cached.analysis
  const holdsItems = options.holdsItems
  const reading: ParagraphReading = {
    locator: createLocator(file),
    dialects: paragraphDialects,
    holdsItems: holdsItems ? (field) => isListField(field) || holdsItems(field) : isListField
  }
  const analysis = analyze(tree, reading, names)
  cache.set(tree, {analysis, withSource, names: names.key, holdsItems})
  return analysis
}

/** The names a heading may have to start a contract, folded: as written, and as ids. */
interface KnownNames {
  /** The folded names, sorted and joined: what an analysis was made with. */
  key: string
  wanted: ReadonlySet<string>
  ids: ReadonlySet<string>
}

function namesOf(given: Iterable<string>): KnownNames {
  const names = [...new Set([...given].map(foldContractName).filter((name) => name !== ''))].sort()
  return {key: names.join('\n'), wanted: new Set(names), ids: new Set(names.map(normalizeContractId))}
}

function analyze(tree: Root, reading: ParagraphReading, names: KnownNames): ContractAnalysis {
  const {locator} = reading
  const problems: ContractProblem[] = []
  const {parts, frontmatter} = readParts(tree, reading, names, problems)
  const isContract = contractHeadings(parts)
  const contracts: Contract[] = []
  let current: Draft | null = null
  let slice: {heading: SliceHeading; depth: number} | null = null
  const frontDraft = frontmatter ? fromFrontmatter(frontmatter.contract, frontmatter.position) : null
  if (frontDraft) current = frontDraft

  for (const [index, part] of parts.entries()) {
    if (!part.heading || !part.position) {
      if (current) takePart(current, part)
      continue
    }
    if (slice && part.depth <= slice.depth) slice = null
    if (isContract[index]) {
      closeDraft(current, frontDraft, contracts, problems)
      current = null
      // The body of a frontmatter contract repeats its heading: same contract.
      if (frontDraft && part.shape && isSameContract(frontDraft, part.shape)) {
        current = frontDraft
        frontDraft.depth = part.depth
        frontDraft.end = part.position.end
        takePart(frontDraft, part)
        continue
      }
      const draft: Draft = {
        id: part.shape?.id ?? null,
        name: part.shape ? part.shape.name : part.text.trim(),
        depth: part.depth,
        start: part.position.start,
        end: part.position.end,
        headingPosition: part.position,
        sliceHeading: slice?.heading ?? null,
        fields: [],
        frontmatter: false,
        open: null
      }
      current = draft
      takePart(draft, part)
      continue
    }
    if (current && part.depth <= current.depth) {
      closeDraft(current, frontDraft, contracts, problems)
      current = null
    }
    // A lower-rank heading is part of the contract’s section: its first blocks may go on with the criteria above it.
    else if (current) {
      const after = current.open ? readFollowing(current.open, tree.children, part.from, reading) : null
      if (after) appendAll(current.fields, after.fields)
      takePart(current, part, after)
    }
    if (part.slice) slice = {heading: part.slice, depth: part.depth}
  }
  closeDraft(current, frontDraft, contracts, problems)
  if (frontDraft) contracts.unshift(finish(frontDraft, problems))
  if (locator.source !== null) appendAll(problems, findUnreadContracts(locator.source, tree, contracts).map(unreadHeadingProblem))
  return {contracts, problems}
}

/** The contract being read ends: it joins the others (the frontmatter contract joins them first, at the end). */
function closeDraft(draft: Draft | null, frontDraft: Draft | null, contracts: Contract[], problems: ContractProblem[]): void {
  if (draft && draft !== frontDraft) contracts.push(finish(draft, problems))
}

/**
 * A part's fields go to the contract being read, and its section runs to the
 * part's end; the field that takes items next is its last label's, else what
 * the field above it left open after reading its first blocks (`after`).
 */
function takePart(draft: Draft, part: Part, after: Following | null = null): void {
  appendAll(draft.fields, part.fields)
  if (part.end) draft.end = part.end
  draft.open = part.labelled || !after ? part.open : after.open
}

/** The document cut at its headings, each part with the fields of its blocks; and its frontmatter contract. */
function readParts(tree: Root, reading: ParagraphReading, names: KnownNames, problems: ContractProblem[]) {
  const {locator} = reading
  const children = tree.children
  const parts: Part[] = [startPart(null, 0, names)]
  let frontmatter: {contract: FrontmatterContract; position: Position} | null = null
  for (let index = 0; index < children.length; index++) {
    const node = children[index]
    if (!node.position) continue
    const part = parts[parts.length - 1]
    if (node.type === 'yaml' && index === 0) {
      for (const dialect of frontmatterDialects) {
        const read = dialect.read(node, locator)
        appendAll(problems, read.problems)
        if (read.contract) frontmatter = {contract: read.contract, position: node.position}
      }
      continue
    }
    if (node.type === 'heading') {
      parts.push(startPart(node, index + 1, names))
      continue
    }
    part.end = node.position.end
    if (node.type === 'paragraph') {
      const read = readParagraphFields(node, children, index + 1, reading)
      if (read.fields.length > 0) readLabelled(part, read.fields, children, read.rest, reading)
      if (read.used > 0) {
        index += read.used
        part.end = children[index].position?.end ?? part.end
      }
      continue
    }
    // A fenced block may sit in a list item or a quote: read it there too. Other blocks hold none.
    if (node.type !== 'code' && node.type !== 'list' && node.type !== 'blockquote') continue
    for (const code of codeBlocks(node)) {
      if (!isFenced(code, locator)) continue
      const lines = splitAtLineEndings(code.value)
      const dialect = fenceDialects.find((candidate) => candidate.claims(lines, code.lang ?? null))
      const fields = dialect ? readBlockFields(code, lines, locator, dialect) : null
      if (!fields) continue
      appendAll(part.fields, fields)
      // Fields in a fence of markdown or code show how a contract is written: they never make a heading a contract.
      if (!isShownFence(code)) part.marks ||= fields.some(marksContract)
    }
  }
  return {parts, frontmatter}
}

/** The part a heading starts (`null`: the blocks before the first heading), its first block at `from`. */
function startPart(heading: Heading | null, from: number, names: KnownNames): Part {
  const text = heading ? toString(heading) : ''
  const {shape, slice, idLike} = readHeadingText(text)
  return {
    heading,
    position: heading?.position ?? null,
    depth: heading?.depth ?? 0,
    text,
    shape,
    named: names.ids.has(shape?.id ?? '') || names.wanted.has(foldContractName(text)) || names.wanted.has(foldContractName(shape?.name ?? '')),
    idLike,
    slice,
    fields: [],
    marks: false,
    end: heading?.position?.end ?? null,
    from,
    labelled: false,
    open: null
  }
}

/**
 * The fields of a paragraph of labels join the part; the blocks after the
 * last one's list are read when it holds items, up to the next label or
 * heading, and what it leaves open is the part's.
 */
function readLabelled(part: Part, fields: ContractField[], children: readonly RootContent[], rest: number, reading: ParagraphReading): void {
  const last = fields[fields.length - 1]
  const after = reading.holdsItems(last) ? readFollowing(last, children, rest, reading) : nothingFollows
  appendAll(part.fields, fields)
  appendAll(part.fields, after.fields)
  part.marks ||= fields.some(marksContract) || after.fields.some(marksContract)
  part.labelled = true
  part.open = after.open
}

// After a label that heads no items (`**Notes:**`), the reader reads on as before: no block is its.
const nothingFollows: Following = {fields: [], open: null}

/**
 * Which headings start a contract: those with an id shape (`C-12: Name`,
 * `Contract: Name`) or named by the caller, and those whose own blocks hold a
 * tier, criteria or steps field; but not a heading that holds no such field
 * itself and encloses deeper ones that start contracts or have ids of any
 * kind (a slice, milestone or group heading), nor a heading without an id
 * inside a contract’s section (a subsection of it).
 */
function contractHeadings(parts: readonly Part[]): boolean[] {
  const strong = parts.map((part) => part.heading !== null && (part.shape !== null || part.named))
  const direct = parts.map((part) => part.heading !== null && part.marks)
  const encloses = parts.map(() => false)
  // Open headings, shallowest first: at most six deep.
  const open: number[] = []
  for (const [index, part] of parts.entries()) {
    if (!part.heading) continue
    while (open.length > 0 && parts[open[open.length - 1]].depth >= part.depth) open.pop()
    if (strong[index] || direct[index] || part.idLike) for (const enclosing of open) encloses[enclosing] = true
    open.push(index)
  }
  const result = parts.map(() => false)
  // The contract whose section we are in: a heading without an id inside it is a subsection.
  let within: number | null = null
  for (const [index, part] of parts.entries()) {
    if (!part.heading) continue
    if (within !== null && part.depth <= parts[within].depth) within = null
    const candidate = strong[index] || direct[index]
    if (!candidate || (!direct[index] && encloses[index])) continue
    if (!strong[index] && within !== null) continue
    result[index] = true
    within = index
  }
  return result
}

/**
 * Code blocks of a node: itself, or those nested in its lists and quotes, in
 * document order. A loop, not recursion: a quote can nest thousands deep.
 */
function codeBlocks(node: Nodes): Code[] {
  const found: Code[] = []
  const stack: Nodes[] = [node]
  while (stack.length > 0) {
    const next = stack.pop()
    if (next?.type === 'code') found.push(next)
    else if (next?.type === 'list' || next?.type === 'listItem' || next?.type === 'blockquote') appendAll(stack, next.children.toReversed())
  }
  return found
}

function fromFrontmatter(read: FrontmatterContract, position: Position): Draft {
  return {
    id: read.id,
    name: read.name,
    depth: 0,
    start: position.start,
    end: position.end,
    headingPosition: read.headingPosition,
    sliceHeading: null,
    fields: read.fields,
    frontmatter: true,
    open: null
  }
}

function isSameContract(frontmatter: Draft, heading: {id: string | null; name: string}): boolean {
  if (frontmatter.id && heading.id) return frontmatter.id === heading.id
  return frontmatter.name !== '' && frontmatter.name === heading.name
}

/**
 * A fence inside a contract whose own fields are written outside fences is an
 * example (of another contract, of a template), not its fields.
 */
function ownFields(fields: ContractField[]): ContractField[] {
  const outside = fields.some((field) => field.key !== null && dialectOf(field.dialect).reads === 'paragraph')
  return outside ? fields.filter((field) => dialectOf(field.dialect).reads !== 'fence') : fields
}

function finish(draft: Draft, problems: ContractProblem[]): Contract {
  const fields = draft.frontmatter ? draft.fields : ownFields(draft.fields)
  for (const field of fields) readInlineItem(field)
  const itemsOf = (key: FieldKey) => fields.filter((field) => field.key === key).flatMap((field) => field.items)
  const sliceField = fields.find((field) => field.key === 'slice' && field.value !== '')
  const label = contractLabel(draft.id, draft.name)
  const tier = readContractTier(fields, label, problems)
  const dialect: Dialect = fields[0]?.dialect ?? (draft.frontmatter ? 'frontmatter' : 'bold')
  return {
    id: draft.id,
    name: draft.name,
    label,
    dialect,
    position: {start: draft.start, end: draft.end},
    headingPosition: draft.headingPosition,
    tier,
    effectiveTier: effectiveTier(tier),
    criteria: itemsOf('acceptanceCriteria'),
    steps: itemsOf('steps'),
    slice: (sliceField && sliceIdOf(sliceField.value)) ?? draft.sliceHeading?.id ?? null,
    sliceHeading: draft.sliceHeading,
    fields
  }
}

/** The tier as written; two tier fields that disagree are `verify`, the safe side, and a problem naming both. */
function readContractTier(fields: ContractField[], label: string, problems: ContractProblem[]): string | null {
  const written = fields.filter((field) => field.key === 'verification')
  const first = written[0]
  if (!first) return null
  const tier = readTier(first.value)
  const other = written.find((field) => readTier(field.value) !== tier)
  if (!other) return tier
  problems.push({
    kind: 'tier-conflict',
    subject: label,
    part: 'field',
    actual: readTier(other.value),
    expected: tier,
    place: other.valuePosition ?? other.labelPosition,
    otherPlace: first.valuePosition ?? first.labelPosition
  })
  return 'verify'
}

/** The slice a Slice field names: `S-23 (Verification Gate)` is `S-23`; other text as written. */
function sliceIdOf(value: string): string {
  const heading = parseSliceHeading(value.replace(/\s*\(.*\)\s*$/, ''))
  return heading?.id ?? value
}

/**
 * `**Steps:** Open /campaigns` gives one step, as a lone YAML string does,
 * so no dialect loses a criterion written on one line.
 */
function readInlineItem(field: ContractField): void {
  if (!isListField(field) || field.items.length > 0 || field.hasList || field.dialect === 'frontmatter') return
  const item = inlineItem(field)
  if (item) field.items.push(item)
}

// Info strings of fences that hold a contract's own fields as text: none, or a text or data language.
const fieldLanguages = new Set(['text', 'txt', 'plain', 'plaintext', 'contract', 'yaml', 'yml'])

/**
 * A fence of markdown or code (```` ```markdown ````, ```` ```js ````) shows
 * how something is written: its fields belong to a contract only when the
 * heading is one by itself (an id, `Contract: Name`, a graph name) and writes
 * no fields outside fences; they never make a heading a contract.
 */
function isShownFence(code: Code): boolean {
  return code.lang !== null && code.lang !== undefined && !fieldLanguages.has(code.lang.toLowerCase())
}
