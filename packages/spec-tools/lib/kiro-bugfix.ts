/** A Kiro bugfix spec (`bugfix.md`): what the fix must make true, and what it must leave as it was. */
import type {Heading, Nodes, Paragraph} from 'mdast'
import type {Position} from 'unist'
import {location} from 'vfile-location'
import {collapse, inlineText, splitCheck} from '@verification-tiers/contracts'
import type {Contract, ContractItem} from '@verification-tiers/contracts'
import {textOf} from './kiro-headings.js'
import type {RequirementsOptions, RequirementsReading} from './kiro-requirements.js'
import {parseMarkdownText} from './markdown.js'

/** The parts of a bug analysis, in the template's order: what is wrong, what the fix makes true, what it keeps. */
type Part = 'current' | 'expected' | 'unchanged'

const parts: readonly Part[] = ['current', 'expected', 'unchanged']

/** The titles the template gives them in English (`### Expected Behavior (Correct)`); in another language their order says which is which. */
const partTitles: Readonly<Record<Part, RegExp>> = {
  current: /\b(?:current|defect)/i,
  expected: /\b(?:expected|correct)/i,
  unchanged: /\b(?:unchanged|regression|preserv)/i
}

/** The contract each verified part is, as checkpoints name it. */
const partNames: Readonly<Record<Exclude<Part, 'current'>, string>> = {
  expected: 'Expected behavior',
  unchanged: 'Unchanged behavior'
}

// A statement: its number (`2.1`, `3.10.`), then its text (`WHEN … THEN the system SHALL …`).
const statement = /^\s*(\d+)\.(\d+)\.?\s+(\S.*)$/

/**
 * The statements of a Kiro bugfix spec as contracts: one for the expected
 * behavior (`2.1 WHEN … THEN the system SHALL …`), one for the unchanged
 * behavior (`3.1 … SHALL CONTINUE TO …`), each statement a criterion at
 * its line, whether it stands in a paragraph of its own or shares one. The
 * current behavior (the defect) is what the fix changes: shown by its
 * section, never a criterion. A part is found by the number its statements
 * carry (`2.x` is expected, `3.x` unchanged), else by its title or its
 * place among the analysis' headings. A spec whose expected behavior holds
 * no statement is a problem naming the file: a bugfix with nothing to
 * check never passes as none.
 */
export function readBugfix(file: string, written: string, options: RequirementsOptions): RequirementsReading {
  const text = written.charCodeAt(0) === 0xfeff ? written.slice(1) : written
  const nodes = parseMarkdownText(text).children
  const place = location(text)
  const found: Record<Exclude<Part, 'current'>, {heading: Heading | null; items: ContractItem[]}> = {
    expected: {heading: null, items: []},
    unchanged: {heading: null, items: []}
  }
  let heading: Heading | null = null
  let order = -1
  for (const node of nodes) {
    if (node.type === 'heading') {
      if (node.depth >= 3) {
        heading = node
        order++
      }
      continue
    }
    if (node.type !== 'paragraph' || !node.position) continue
    for (const {number, item} of statements(node, text, place)) {
      const part = partOf(number, heading, order)
      if (part === 'current') continue
      found[part].heading ??= heading
      found[part].items.push(item)
    }
  }
  const contracts: RequirementsReading['contracts'] = []
  for (const part of ['expected', 'unchanged'] as const) {
    const {heading: title, items} = found[part]
    if (items.length === 0) continue
    const headingPosition = title?.position ?? items[0].position
    const position: Position = {start: headingPosition.start, end: items.at(-1)!.position.end}
    const contract: Contract = {
      id: null,
      name: partNames[part],
      label: partNames[part],
      dialect: 'bold',
      position,
      headingPosition,
      tier: null,
      effectiveTier: options.defaultTier,
      criteria: items,
      steps: [],
      slice: options.slice,
      sliceHeading: null,
      fields: []
    }
    contracts.push({contract, file, source: text.slice(position.start.offset ?? 0, position.end.offset ?? text.length)})
  }
  const problems =
    found.expected.items.length === 0
      ? [
          {
            file,
            line: null,
            message:
              'Unexpected bugfix.md without expected behavior, expected `### Expected Behavior (Correct)` with numbered statements such as `2.1 WHEN … THEN the system SHALL …`'
          }
        ]
      : []
  return {contracts, problems}
}

/** Which part a statement is: by its number, else by its section's title, else by the section's place. */
function partOf(number: number, heading: Heading | null, order: number): Part {
  if (number >= 1 && number <= 3) return parts[number - 1]
  const title = heading ? textOf(heading) : ''
  for (const part of parts) if (partTitles[part].test(title)) return part
  return parts[Math.min(Math.max(order, 0), 2)]
}

/** The numbered statements of a paragraph, one per line that opens with its number, each at its line. */
function statements(paragraph: Paragraph, text: string, place: ReturnType<typeof location>): Array<{number: number; item: ContractItem}> {
  const start = paragraph.position!.start.offset ?? 0
  const written = text.slice(start, paragraph.position!.end.offset ?? start)
  const found: Array<{number: number; item: ContractItem}> = []
  let offset = start
  for (const line of written.split('\n')) {
    const match = statement.exec(line)
    if (match) {
      const from = offset + line.indexOf(match[3])
      const to = offset + line.replace(/\s+$/, '').length
      const words = collapse(inlineText(parseMarkdownText(match[3]).children.flatMap((node) => ('children' in node ? (node.children as Nodes[]) : []))))
      const at = place.toPoint(from)
      const end = place.toPoint(to)
      if (at && end) found.push({number: Number(match[1]), item: {...splitCheck(words), position: {start: at, end}}})
    } else if (found.length > 0 && line.trim() !== '') {
      // A line without a number continues the statement above it.
      const last = found.at(-1)!.item
      const end = place.toPoint(offset + line.replace(/\s+$/, '').length)
      if (end) last.position = {start: last.position.start, end}
      last.text = `${last.text} ${collapse(line)}`
    }
    offset += line.length + 1
  }
  return found
}
