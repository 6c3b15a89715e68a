import type {Code, Nodes, Root, RootContent} from 'mdast'
import {toString} from 'mdast-util-to-string'
import type {Point, Position} from 'unist'
import type {VFile} from 'vfile'
import {readBoldFields} from './bold.js'
import {readBlockFields} from './fenced.js'
import {readFrontmatter} from './frontmatter.js'
import type {FrontmatterContract} from './frontmatter.js'
import {contractLabel, parseContractHeading, parseSliceHeading} from './heading.js'
import {splitCheck} from './criterion.js'
import {createLocator} from './locate.js'
import {effectiveTier, readTier} from './tier.js'
import type {Locator} from './locate.js'
import type {Contract, ContractAnalysis, ContractField, ContractProblem, Dialect, SliceHeading} from './types.js'

/** A contract being read: its section runs until a heading of the same or higher rank. */
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
}

// One analysis per tree, shared by every rule that lints it.
// An analysis made without the file’s text is redone when the text comes.
const cache = new WeakMap<Root, {analysis: ContractAnalysis; withSource: boolean}>()

/**
 * Every contract in a document, with positions for every field and item.
 * The result is cached per tree: call it from as many rules as you like.
 */
export function extractContracts(tree: Root, file?: VFile): Contract[] {
  return analyzeContracts(tree, file).contracts
}

/** Contracts plus the problems that kept parts of them from being read (bad YAML, wrong field types). */
export function analyzeContracts(tree: Root, file?: VFile): ContractAnalysis {
  const withSource = file?.value !== undefined
  const cached = cache.get(tree)
  if (cached && (cached.withSource || !withSource)) return cached.analysis
  const analysis = analyze(tree, createLocator(file))
  cache.set(tree, {analysis, withSource})
  return analysis
}

function analyze(tree: Root, locator: Locator): ContractAnalysis {
  const contracts: Contract[] = []
  const problems: ContractProblem[] = []
  const children = tree.children
  let current: Draft | null = null
  let slice: {heading: SliceHeading; depth: number} | null = null
  let frontmatter: Draft | null = null

  const close = () => {
    if (current && current !== frontmatter) contracts.push(finish(current))
    current = null
  }

  for (let index = 0; index < children.length; index++) {
    const node: RootContent = children[index]!
    if (!node.position) continue
    if (node.type === 'yaml' && index === 0) {
      const read = readFrontmatter(node, locator)
      problems.push(...read.problems)
      if (read.contract) {
        frontmatter = fromFrontmatter(read.contract, node.position)
        current = frontmatter
      }
      continue
    }
    if (node.type === 'heading') {
      const text = toString(node)
      const heading = parseContractHeading(text)
      if (slice && node.depth <= slice.depth) slice = null
      if (heading) {
        close()
        // The body of a frontmatter contract repeats its heading: same contract.
        if (frontmatter && isSameContract(frontmatter, heading)) {
          current = frontmatter
          frontmatter.depth = node.depth
          frontmatter.end = node.position.end
          continue
        }
        current = {
          ...heading,
          depth: node.depth,
          start: node.position.start,
          end: node.position.end,
          headingPosition: node.position,
          sliceHeading: slice?.heading ?? null,
          fields: [],
          frontmatter: false
        }
        continue
      }
      if (current && node.depth <= current.depth) close()
      // A lower-rank heading is part of the contract’s section.
      else if (current) current.end = node.position.end
      const sliceHeading = parseSliceHeading(text)
      if (sliceHeading) slice = {heading: sliceHeading, depth: node.depth}
      continue
    }
    if (!current) continue
    const draft: Draft = current
    draft.end = node.position.end
    if (node.type === 'paragraph') {
      const read = readBoldFields(node, children, index + 1, locator)
      draft.fields.push(...read.fields)
      if (read.used > 0) {
        index += read.used
        draft.end = children[index]!.position?.end ?? draft.end
      }
    } else {
      // A fenced block may sit in a list item or a quote: read it there too.
      for (const code of codeBlocks(node)) {
        const fields = readBlockFields(code, locator)
        if (fields) draft.fields.push(...fields)
      }
    }
  }
  close()
  if (frontmatter) contracts.unshift(finish(frontmatter))
  return {contracts, problems}
}

/**
 * Code blocks of a node: itself, or those nested in its lists and quotes, in
 * document order. A loop, not recursion: a quote can nest thousands deep.
 */
function codeBlocks(node: Nodes): Code[] {
  const found: Code[] = []
  const stack: Nodes[] = [node]
  while (stack.length > 0) {
    const next = stack.pop()!
    if (next.type === 'code') found.push(next)
    else if (next.type === 'list' || next.type === 'listItem' || next.type === 'blockquote') {
      for (let index = next.children.length - 1; index >= 0; index--) stack.push(next.children[index]!)
    }
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
    frontmatter: true
  }
}

function isSameContract(frontmatter: Draft, heading: {id: string | null; name: string}): boolean {
  if (frontmatter.id && heading.id) return frontmatter.id === heading.id
  return frontmatter.name !== '' && frontmatter.name === heading.name
}

function finish(draft: Draft): Contract {
  const {fields} = draft
  for (const field of fields) readInlineItem(field)
  const verification = fields.find((field) => field.key === 'verification')
  const tier = verification ? readTier(verification.value) : null
  const sliceField = fields.find((field) => field.key === 'slice' && field.value !== '')
  const dialect: Dialect = fields[0]?.dialect ?? (draft.frontmatter ? 'frontmatter' : 'bold')
  return {
    id: draft.id,
    name: draft.name,
    label: contractLabel(draft.id, draft.name),
    dialect,
    position: {start: draft.start, end: draft.end},
    headingPosition: draft.headingPosition,
    tier,
    effectiveTier: effectiveTier(tier),
    criteria: fields.filter((field) => field.key === 'acceptanceCriteria').flatMap((field) => field.items),
    steps: fields.filter((field) => field.key === 'steps').flatMap((field) => field.items),
    slice: (sliceField && sliceIdOf(sliceField.value)) ?? draft.sliceHeading?.id ?? null,
    sliceHeading: draft.sliceHeading,
    fields
  }
}

/** The slice a Slice field names: `S-23 (Verification Gate)` is `S-23`; other text as written. */
function sliceIdOf(value: string): string {
  const heading = parseSliceHeading(value.replace(/\s*\(.*\)\s*$/, ''))
  return heading?.id ?? value
}

// Words that say a list is empty on purpose.
const nothing = /^(?:none|n\/?a|nothing|tbd|-|—)\.?$/i

/**
 * `**Steps:** Open /campaigns` gives one step, as a lone YAML string does,
 * so no dialect loses a criterion written on one line.
 */
function readInlineItem(field: ContractField): void {
  if (field.key !== 'acceptanceCriteria' && field.key !== 'steps') return
  if (field.items.length > 0 || field.hasList || !field.valuePosition || nothing.test(field.value)) return
  if (field.dialect === 'frontmatter') return
  field.items.push({...splitCheck(field.value), position: field.valuePosition})
}
