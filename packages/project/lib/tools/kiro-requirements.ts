import type {Heading, List, Nodes, Paragraph, RootContent} from 'mdast'
import type {Position} from 'unist'
import {location} from 'vfile-location'
import {collapse, inlineText, labelFor, readTier, splitCheck} from '@verification-tiers/contracts'
import type {Contract, ContractField, ContractItem, ContractText, Tier} from '@verification-tiers/contracts'
import type {LoadedContract} from '../project.js'
import type {ProjectProblem} from '../problems.js'
import {inFencedExample, parseMarkdown} from './markdown.js'

/** What one `requirements.md` holds: its requirements as contracts, and what was seen and not read. */
export interface RequirementsReading {
  contracts: LoadedContract[]
  problems: ProjectProblem[]
}

/** How a `requirements.md` is read. */
export interface RequirementsOptions {
  /** The slice (feature folder) its requirements are in. */
  slice: string
  /** The tier of a requirement that states none. */
  defaultTier: Tier
}

/**
 * The title of an acceptance-criteria section, in the languages people write
 * Kiro specs in; compared with the heading's text folded to lower case, so
 * `Acceptance criteria`, `验收标准` and `Critères d’acceptation` all open one.
 */
const criteriaTitles = [
  'acceptance criteria',
  'acceptance criterion',
  '验收标准',
  '驗收標準',
  '验收准则',
  '验收条件',
  '受け入れ基準',
  '受入基準',
  '受け入れ条件',
  '受入条件',
  '인수 기준',
  '수락 기준',
  '승인 기준',
  'akzeptanzkriterien',
  'critères d’acceptation',
  "critères d'acceptation",
  'criterios de aceptación',
  'critérios de aceitação',
  'criteri di accettazione',
  'критерии приемки',
  'критерии приёмки'
]

/** The word a requirement heading opens with, where it has no criteria to show it is one. */
export const requirementWord = /^(?:requirement|req\.?|需求|要求|要件|요구\s?사항|anforderung|exigence|requisito|требование)\s*#?\s*\d/i

// `Requirement 1`, `Requirement 2: Title`, `Requirement 3 – Title`, `需求 4：标题`, `Requirement 1.2. Title`: a word, a number, a separator, a title.
const dashes = '\\-\\u2010-\\u2015\\u2212'
const numbered = new RegExp(`^([^\\d]{0,40}?)\\s*#?\\s*(\\d+(?:\\.\\d+)*)(?=$|[\\s:：.．)${dashes}])\\)?\\s*(?:(?:[:：.．]|[${dashes}]+)\\s*)?(.*)$`, 'u')

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
  const nodes = parseMarkdown(text).children
  const place = location(text)
  const isMarker = criteriaMarkers(nodes)
  const markers = nodes.flatMap((node, index) => (isMarker(node) ? [index] : []))
  const starts = requirementStarts(nodes, markers)
  const ends = starts.map((start, order) => sectionEnd(nodes, start, starts[order + 1]))
  const problems: ProjectProblem[] = [...hiddenRequirements(file, text, nodes)]
  if (starts.length > 0) {
    for (const index of markers) {
      if (ownerOf(starts, ends, index) !== null) continue
      problems.push({file, line: lineOf(nodes[index]!), message: 'Unexpected acceptance criteria outside a requirement, expected them under a `### Requirement N` heading'})
    }
  }
  const contracts: LoadedContract[] = []
  const firstOfId = new Map<string, number>()
  for (const [order, start] of starts.entries()) {
    const heading = nodes[start] as Heading
    const read = readRequirement({file, text, place, isMarker}, heading, nodes.slice(start + 1, ends[order]), options)
    problems.push(...read.problems)
    const {contract} = read
    if (contract.id !== null) {
      const first = firstOfId.get(contract.id)
      if (first === undefined) firstOfId.set(contract.id, heading.position!.start.line)
      else problems.push({file, line: heading.position!.start.line, message: `Unexpected second requirement numbered ${contract.id.slice(2)} (${contract.label}), the number of the requirement at line ${first}; expected a number of its own`})
    }
    const {start: from, end: to} = contract.position
    contracts.push({contract, file, source: text.slice(from.offset ?? 0, to.offset ?? text.length)})
  }
  // In the order of the file, as a person fixes them.
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  return {contracts, problems}
}

// `### Requirement 3` behind what keeps markdown from reading it as a heading: indentation, `>`, a list marker, HTML, or no space after the `#`.
const hiddenHeading = /^((?:[\s>]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])|<[^<>\n]*>)*)#{1,6}\s*(\S.*)$/u

/**
 * Lines a person reads as a requirement heading that markdown does not make
 * one (in a list or a quote, indented, after HTML, `###Requirement 3`), each
 * a problem: the requirement would be missing from every checkpoint. A fenced
 * block with a language (```` ```markdown ````) shows an example and is skipped.
 */
function hiddenRequirements(file: string, text: string, nodes: readonly RootContent[]): ProjectProblem[] {
  const headings = new Set(nodes.flatMap((node) => (node.type === 'heading' && node.position ? [node.position.start.line] : [])))
  const inExample = inFencedExample(nodes)
  const problems: ProjectProblem[] = []
  text.split(/\r\n?|\n/).forEach((line, index) => {
    const number = index + 1
    const hidden = hiddenHeading.exec(line)
    if (!hidden || headings.has(number) || !requirementWord.test(hidden[2]!.trim())) return
    if (inExample(number)) return
    problems.push({
      file,
      line: number,
      message: `Unexpected requirement heading ${JSON.stringify(line.trim())} that markdown does not read as a heading, expected \`#\` marks then a space at the start of a line of its own, outside lists, quotes and HTML`
    })
  })
  return problems
}

/** The text of a heading or paragraph as written, on one line. */
function textOf(node: Heading | Paragraph): string {
  return collapse(inlineText(node.children as Nodes[]))
}

function folded(text: string): string {
  return text.toLowerCase().replace(/[\s:：]+$/u, '').replace(/\s+/g, ' ')
}

/** A title that opens with an acceptance-criteria title: `Acceptance Criteria`, `Acceptance criteria (continued)`, `验收标准`. */
function isCriteriaTitle(text: string): boolean {
  const title = folded(text)
  return !requirementWord.test(title) && criteriaTitles.some((one) => title.startsWith(one) && (title.length === one.length || /^[\s(（:：\-–—]/u.test(title.slice(one.length))))
}

/** A heading titled Acceptance Criteria, or a paragraph that is only that title (`**Acceptance Criteria:**`). */
function isCriteriaMarker(node: RootContent): boolean {
  if (node.type === 'heading') return isCriteriaTitle(textOf(node))
  return node.type === 'paragraph' && criteriaTitles.includes(folded(textOf(node)))
}

// A heading that numbers its subject in any language: `Yêu cầu 1`, `Wymaganie 2: Tytuł`.
const numberedSubject = /^\p{L}[\p{L}\p{M}\s.]{0,40}?\s*#?\d/u

/**
 * Which blocks open an acceptance-criteria section. By title, in the
 * languages of `criteriaTitles`; in a document with none of those and no
 * `Requirement N`, by the template's structure: the title of the first
 * sub-heading of numbered headings (`### Yêu cầu 1` then `#### Tiêu chí
 * chấp nhận`) that a list follows, taken where it appears most.
 */
function criteriaMarkers(nodes: readonly RootContent[]): (node: RootContent) => boolean {
  if (nodes.some((node) => isCriteriaMarker(node) || (node.type === 'heading' && requirementWord.test(textOf(node))))) return isCriteriaMarker
  const counts = new Map<string, number>()
  nodes.forEach((node, index) => {
    if (node.type !== 'heading' || node.depth === 1 || !numberedSubject.test(textOf(node))) return
    // Its first sub-heading, past the User Story.
    let at = index + 1
    while (at < nodes.length && nodes[at]!.type !== 'heading') at++
    const sub = nodes[at]
    if (sub?.type !== 'heading' || sub.depth <= node.depth || nodes[at + 1]?.type !== 'list' || numberedSubject.test(textOf(sub))) return
    const title = folded(textOf(sub))
    counts.set(title, (counts.get(title) ?? 0) + 1)
  })
  const learned = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
  if (learned === undefined) return isCriteriaMarker
  return (node) => node.type === 'heading' && folded(textOf(node)) === learned
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
      const above = Math.max(-1, ...lastAt.slice(1, depth).filter((index) => index !== undefined))
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
  while (order >= 0 && starts[order]! > marker) order--
  return order >= 0 && marker < ends[order]! ? starts[order]! : null
}

/** Where a requirement's section ends: at the next heading of its level or above, or at the next requirement. */
function sectionEnd(nodes: readonly RootContent[], start: number, next: number | undefined): number {
  const depth = (nodes[start] as Heading).depth
  const limit = next ?? nodes.length
  for (let index = start + 1; index < limit; index++) {
    const node = nodes[index]!
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
): {contract: Contract; problems: ProjectProblem[]} {
  const label = textOf(heading)
  const match = numbered.exec(label)
  const id = match ? `R-${match[2]}` : null
  const name = (match?.[3] ?? '').trim() || label
  const problems: ProjectProblem[] = []
  const fields: ContractField[] = []
  const tierField = verificationField(text, section, place)
  if (tierField) fields.push(tierField)
  // Every criteria section of the requirement counts: a second one (`Acceptance Criteria (continued)`) is never dropped.
  const criteria: ContractItem[] = []
  section.forEach((node, markerIndex) => {
    if (!isMarker(node)) return
    const field = criteriaField(section, markerIndex, tierField, isMarker)
    fields.push(field)
    criteria.push(...field.items)
    for (const unread of field.unread) {
      problems.push({file, line: unread.position.start.line, message: `Unexpected ${unread.kind} under the acceptance criteria of ${label}, expected list items, one criterion each`})
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
        return {
          key: 'verification',
          label: 'Verification',
          expectedLabel: labelFor('verification', 'bold'),
          value,
          dialect: 'bold',
          position: {start: place.toPoint(labelStart)!, end: place.toPoint(lineEnd)!},
          labelPosition: at(labelStart, 'verification'.length),
          valuePosition: valueStart === -1 ? null : at(offset + valueStart, written.length),
          items: [],
          hasList: false,
          unread: []
        }
      }
      offset += line.length + 1
    }
  }
  return null
}

/** The criteria of a requirement: every item of the lists after its criteria title, up to the next heading at the title's level or above. */
function criteriaField(section: readonly RootContent[], markerIndex: number, tierField: ContractField | null, isMarker: (node: RootContent) => boolean): ContractField {
  const marker = section[markerIndex] as Heading | Paragraph
  const depth = marker.type === 'heading' ? marker.depth : 7
  const items: ContractItem[] = []
  const unread: ContractText[] = []
  let hasList = false
  let end = marker.position!.end
  for (const node of section.slice(markerIndex + 1)) {
    if (isMarker(node) || (node.type === 'heading' && (node.depth <= depth || marker.type === 'paragraph'))) break
    // A heading below the title groups criteria (`##### On error`): a title, no criterion.
    if (node.type === 'heading') continue
    end = node.position?.end ?? end
    if (node.type === 'list') {
      hasList = true
      items.push(...listCriteria(node))
    } else if (tierField && node.position && node.position.start.line <= tierField.position.start.line && tierField.position.start.line <= node.position.end.line && node.type === 'paragraph') {
      continue
    } else {
      const kind = unreadKind(node)
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
