import {appendAll, collapse, inlineText, labelFor, labelledField, readTier, splitCheck} from '@verification-tiers/contracts'
import type {Contract, ContractField, ContractItem, ContractText, Tier} from '@verification-tiers/contracts'
import type {Heading, List, Nodes, Paragraph, RootContent, Table} from 'mdast'
import type {Position} from 'unist'
import {location} from 'vfile-location'
import type {FileContract, FileProblem} from './types.js'
import {criteriaMarkers, requirementHeading, requirementHeadingShape, requirementWord, textOf} from './kiro-headings.js'
import {hiddenUnitHeadings} from './hidden.js'
import {parseMarkdownText} from './markdown.js'

/** What one `requirements.md` holds: its requirements as contracts, and what was seen and not read. */
export interface RequirementsReading {
  contracts: FileContract[]
  problems: FileProblem[]
}

/** How a `requirements.md` is read. */
export interface RequirementsOptions {
  /** The slice (feature folder) its requirements are in. */
  slice: string
  /** The tier of a requirement that states none. */
  defaultTier: Tier
}

type Place = ReturnType<typeof location>

/** The file being read: its path, text, points and which blocks open criteria. */
interface Document {
  file: string
  text: string
  place: Place
  isMarker: (node: RootContent) => boolean
}

// `**Verification:** auto`, `Verification: manual`, `__Verification__: verify`: the requirement's own tier.
const verificationLine = /^\s*(?:\*\*|__)?\s*verification\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:|:)\s*(.*?)\s*$/i

/**
 * The requirements of a Kiro `requirements.md`: each `### Requirement N`
 * heading (any level, any dash or colon before its title,
 * in any language when an acceptance-criteria section shows it is one) is a
 * contract, its criteria the items of its `#### Acceptance Criteria` list.
 * Its tier is `verify` unless it states `**Verification:** auto` (`manual`
 * reads as `verify`), or `options.defaultTier` when it states none.
 *
 * A requirement without criteria, text under the criteria that is no list
 * item, a criteria section under no requirement, and a second requirement
 * of one number are problems, each with its line: never dropped in silence.
 */
export function readRequirements(file: string, written: string, options: RequirementsOptions): RequirementsReading {
  // The parser counts every point from after a byte order mark.
  const text = written.charCodeAt(0) === 0xfeff ? written.slice(1) : written
  const tree = parseMarkdownText(text)
  const nodes = tree.children
  const place = location(text)
  const isMarker = criteriaMarkers(nodes)
  const markers = nodes.flatMap((node, index) => (isMarker(node) ? [index] : []))
  const starts = requirementStarts(nodes, markers)
  const ends = starts.map((start, order) => sectionEnd(nodes, start, starts[order + 1]))
  const problems: FileProblem[] = hiddenUnitHeadings(file, text, tree, requirementHeadingShape, 'requirement')
  if (starts.length > 0) {
    for (const index of markers) {
      if (ownerOf(starts, ends, index) !== null) continue
      problems.push({
        file,
        line: lineOf(nodes[index]),
        message: 'Unexpected acceptance criteria outside a requirement, expected them under a `### Requirement N` heading'
      })
    }
  }
  const contracts: FileContract[] = []
  const firstOfId = new Map<string, number>()
  for (const [order, start] of starts.entries()) {
    const heading = nodes[start] as Heading
    const read = readRequirement({file, text, place, isMarker}, heading, nodes.slice(start + 1, ends[order]), options)
    appendAll(problems, read.problems)
    const {contract} = read
    if (contract.id !== null) {
      const first = firstOfId.get(contract.id)
      if (first === undefined) firstOfId.set(contract.id, heading.position!.start.line)
      else
        problems.push({
          file,
          line: heading.position!.start.line,
          message: `Unexpected second requirement numbered ${contract.id.slice(2)} (${contract.label}), the number of the requirement at line ${first}; expected a number of its own`
        })
    }
    const {start: from, end: to} = contract.position
    contracts.push({contract, file, source: text.slice(from.offset ?? 0, to.offset ?? text.length)})
  }
  // In the order of the file, as a person fixes them.
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  return {contracts, problems}
}

/**
 * The requirement headings: those that read `Requirement N`, and the nearest
 * heading above each acceptance-criteria section (a heading at a higher
 * level, or any heading above a criteria paragraph). A document's title (a
 * level-1 heading) names the document: criteria right under it make no
 * requirement of it, unless it reads `Requirement N`.
 */
function requirementStarts(nodes: readonly RootContent[], markers: readonly number[]): number[] {
  const starts = new Set<number>()
  const isMarker = new Set(markers)
  // The last heading of each level seen so far, so each marker finds the heading above it in one pass.
  const lastAt: number[] = []
  nodes.forEach((node, index) => {
    if (isMarker.has(index)) {
      const depth = node.type === 'heading' ? node.depth : 7
      let above = -1
      // A `Requirement N` heading around the criteria is their requirement, past the headings that group them under it (`#### Screen`).
      let requirement = -1
      for (let level = 1; level < depth; level++) {
        const at = lastAt[level] ?? -1
        above = Math.max(above, at)
        if (at !== -1 && requirementWord.test(textOf(nodes[at] as Heading))) requirement = at
      }
      if (requirement !== -1) above = requirement
      const heading = nodes[above]
      if (heading?.type === 'heading' && heading.depth > 1) starts.add(above)
    }
    if (node.type !== 'heading') return
    if (!isMarker.has(index)) {
      if (requirementWord.test(textOf(node))) starts.add(index)
      lastAt[node.depth] = index
    }
    // A heading closes the sections of the deeper levels above it.
    lastAt.length = Math.min(lastAt.length, node.depth + 1)
  })
  return [...starts].sort((a, b) => a - b)
}

/** The requirement a criteria section is in: the last requirement heading above it whose section holds it, else `null`. */
function ownerOf(starts: readonly number[], ends: readonly number[], marker: number): number | null {
  let order = starts.length - 1
  while (order >= 0 && starts[order] > marker) order--
  return order >= 0 && marker < ends[order] ? starts[order] : null
}

/** Where a requirement's section ends: at the next heading of its level or above, or at the next requirement. */
function sectionEnd(nodes: readonly RootContent[], start: number, next: number | undefined): number {
  const depth = (nodes[start] as Heading).depth
  const limit = next ?? nodes.length
  for (let index = start + 1; index < limit; index++) {
    const node = nodes[index]
    if (node.type === 'heading' && node.depth <= depth) return index
  }
  return limit
}

function lineOf(node: RootContent): number {
  return node.position?.start.line ?? 1
}

/** A requirement's section read as a contract, with its problems. */
function readRequirement(
  {file, text, place, isMarker}: Document,
  heading: Heading,
  section: readonly RootContent[],
  options: RequirementsOptions
): {contract: Contract; problems: FileProblem[]} {
  const label = textOf(heading)
  const {id, name} = requirementHeading(label)
  const problems: FileProblem[] = []
  const fields: ContractField[] = []
  const tierField = verificationField(text, section, place)
  if (tierField) fields.push(tierField)
  // Every criteria section of the requirement counts: a second one (`Acceptance Criteria (continued)`) is never dropped.
  const criteria: ContractItem[] = []
  section.forEach((node, markerIndex) => {
    if (!isMarker(node)) return
    const field = criteriaField(section, markerIndex, tierField, isMarker)
    fields.push(field)
    appendAll(criteria, field.items)
    for (const unread of field.unread) {
      problems.push({
        file,
        line: unread.position.start.line,
        message: `Unexpected ${unread.kind} under the acceptance criteria of ${label}, expected list items, one criterion each`
      })
    }
  })
  if (criteria.length === 0) {
    problems.push({
      file,
      line: heading.position!.start.line,
      message: `Unexpected requirement without acceptance criteria (${label}), expected an \`#### Acceptance Criteria\` list under it, one item per criterion (\`1. WHEN … THEN the system SHALL …\`)`
    })
  }
  const last = section[section.length - 1]
  const position: Position = {start: heading.position!.start, end: (last ?? heading).position!.end}
  const stated = tierField ? tierField.value : null
  return {
    contract: {
      id,
      name,
      label,
      dialect: 'bold',
      position,
      headingPosition: heading.position!,
      tier: stated,
      effectiveTier: stated === 'auto' || stated === 'verify' ? stated : stated === null ? options.defaultTier : 'verify',
      criteria,
      steps: [],
      slice: options.slice,
      sliceHeading: null,
      fields
    },
    problems
  }
}

/**
 * The requirement's `**Verification:** auto` line (a line of any paragraph
 * of its section, so one right under the User Story counts), as a field
 * whose value is the tier it states: `manual`, a person's check, reads as
 * `verify`; other text is kept as written, an invalid tier.
 */
function verificationField(text: string, section: readonly RootContent[], place: Place): ContractField | null {
  for (const node of section) {
    if (node.type !== 'paragraph' || node.position?.start.offset === undefined || node.position.end.offset === undefined) continue
    let offset = node.position.start.offset
    for (const line of text.slice(offset, node.position.end.offset).split('\n')) {
      const match = verificationLine.exec(line)
      if (match) {
        const written = readTier((match[1] ?? '').replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, ''))
        const value = written.toLowerCase() === 'manual' ? 'verify' : written
        const labelStart = offset + line.search(/verification/i)
        const valueStart = written === '' ? -1 : line.indexOf(written, line.search(/:/))
        const at = (from: number, length: number): Position => ({start: place.toPoint(from)!, end: place.toPoint(from + length)!})
        const lineEnd = offset + line.trimEnd().length
        return labelledField(labelFor('verification', 'bold'), value, 'bold', 'markdown', {
          position: {start: place.toPoint(labelStart)!, end: place.toPoint(lineEnd)!},
          labelPosition: at(labelStart, 'verification'.length),
          valuePosition: valueStart === -1 ? null : at(offset + valueStart, written.length)
        })
      }
      offset += line.length + 1
    }
  }
  return null
}

/** The criteria of a requirement: every item of the lists after its criteria title, up to the next heading at the title's level or above. */
function criteriaField(
  section: readonly RootContent[],
  markerIndex: number,
  tierField: ContractField | null,
  isMarker: (node: RootContent) => boolean
): ContractField {
  const marker = section[markerIndex] as Heading | Paragraph
  const depth = marker.type === 'heading' ? marker.depth : 7
  const items: ContractItem[] = []
  const unread: ContractText[] = []
  let hasList = false
  let end = marker.position!.end
  for (const node of section.slice(markerIndex + 1)) {
    if (isMarker(node) || (node.type === 'heading' && (node.depth <= depth || marker.type === 'paragraph'))) break
    // Under a bold title (`**Acceptance Criteria:**`), another bold label (`**Event Attributes:**`) starts another part: its list is no criterion.
    if (marker.type === 'paragraph' && isLabelParagraph(node)) break
    // A heading below the title groups criteria (`##### On error`): a title, no criterion.
    if (node.type === 'heading') continue
    end = node.position?.end ?? end
    if (node.type === 'list') {
      hasList = true
      appendAll(items, listCriteria(node))
    } else if (node.type === 'table') {
      hasList = true
      appendAll(items, tableCriteria(node))
    } else {
      // The paragraph holding the tier field is read as the tier, not as unread text.
      const holdsTier =
        tierField &&
        node.position &&
        node.position.start.line <= tierField.position.start.line &&
        tierField.position.start.line <= node.position.end.line &&
        node.type === 'paragraph'
      // A note after the criteria (`**Note:** …`) is prose; a paragraph that reads as a criterion is one left unread.
      const note = node.type === 'paragraph' && !readsAsCriterion(textOf(node))
      const kind = holdsTier || note ? null : unreadKind(node)
      if (kind) unread.push({kind, text: node.type === 'paragraph' ? textOf(node) : '', position: node.position!})
    }
  }
  return {
    key: 'acceptanceCriteria',
    label: textOf(marker).replace(/[\s:：]+$/u, ''),
    expectedLabel: labelFor('acceptanceCriteria', 'bold'),
    value: '',
    dialect: 'bold',
    position: {start: marker.position!.start, end},
    labelPosition: marker.position!,
    valuePosition: null,
    items,
    hasList,
    unread
  }
}

/** How a message names a block under the criteria that is no list; `null` for what holds no text (a comment, a rule). */
function unreadKind(node: RootContent): string | null {
  switch (node.type) {
    case 'paragraph':
      return 'paragraph'
    case 'code':
      return 'code'
    case 'blockquote':
      return 'quote'
    case 'table':
      return 'table'
    case 'html':
      return /^\s*<!--[\s\S]*-->\s*$/.test(node.value) ? null : 'HTML'
    default:
      return null
  }
}

/**
 * Each item of a criteria list is one criterion: its text with the text of
 * its sub-items (the THEN parts some authors nest under the WHEN), a
 * checkbox in front dropped, a `-- verified by:` check split off.
 */
// EARS' words: a criterion opens with its condition in capitals (Kiro's `WHEN`), or says what the system shall do, in any case (cc-sdd writes `When …, the X shall …`).
const earsOpening = /^[\s*_]*(?:WHEN|IF|WHILE|WHERE|GIVEN|THE\s)/
const earsResponse = /(?<![\p{L}\p{N}])(?:shall|must)(?![\p{L}\p{N}])/iu

/** A paragraph that is only a bold label: `**Event Attributes:**`. */
function isLabelParagraph(node: RootContent): boolean {
  return node.type === 'paragraph' && node.children.length <= 2 && node.children[0]?.type === 'strong' && /[:：]\s*$/u.test(textOf(node))
}

/** Whether a paragraph reads as an acceptance criterion: EARS' condition or response words. */
function readsAsCriterion(text: string): boolean {
  return earsOpening.test(text) || earsResponse.test(text)
}

// A cell that is only an id or a number (`AC-1.1`, `1.2`, `#3`): the row's label, not its criterion.
const idCell = /^#?\s*(?:\p{L}{1,8}[-_]?)?\d+(?:\.\d+)*\.?$/u

/**
 * The criteria of a table: each row after its header is one, its cells'
 * text joined (`WHEN …; THEN …`), a first cell that is only an id left out.
 */
function tableCriteria(table: Table): ContractItem[] {
  const items: ContractItem[] = []
  for (const row of table.children.slice(1)) {
    const cells = row.children.map((cell) => collapse(inlineText(cell.children as Nodes[]))).filter((cell) => cell !== '')
    if (cells.length > 1 && idCell.test(cells[0])) cells.shift()
    const raw = cells.join('; ')
    if (raw === '' || !row.position) continue
    items.push({...splitCheck(raw), position: row.position})
  }
  return items
}

function listCriteria(list: List): ContractItem[] {
  const items: ContractItem[] = []
  for (const item of list.children) {
    const parts: string[] = []
    collectText(item.children as Nodes[], parts)
    const raw = collapse(parts.join(' ')).replace(/^\[.\]\s+/, '')
    if (raw === '' || !item.position) continue
    const first = item.children[0]
    const position: Position = first?.position ? {start: first.position.start, end: item.position.end} : item.position
    items.push({...splitCheck(raw), position})
  }
  return items
}

function collectText(nodes: readonly Nodes[], parts: string[]): void {
  for (const node of nodes) {
    if (node.type === 'paragraph' || node.type === 'heading') parts.push(inlineText(node.children as Nodes[]))
    else if (node.type === 'code') parts.push(node.value)
    else if ('children' in node) collectText(node.children as Nodes[], parts)
  }
}
