import {appendAll, effectiveTier, isSliceId, isTier, readTier, resolveFieldKey} from '@verification-tiers/contracts'
import type {Contract, ContractItem, HeadingShape} from '@verification-tiers/contracts'
import type {Position} from 'unist'
import type {Heading, Root, RootContent} from 'mdast'
import {toString} from 'mdast-util-to-string'
import type {FileProblem} from './types.js'
import {sourceOf} from './markdown.js'
import {hiddenUnitHeadings} from './hidden.js'

/** The section of a delta spec a requirement is in: what the change does to it. */
export type DeltaSection = 'ADDED' | 'MODIFIED' | 'REMOVED' | 'RENAMED' | 'CURRENT'

/** A `**Verification:** value` line, the value as written. */
export interface TierStatement {
  value: string
  line: number
  /** The label (`Verification`), so a message points at the user's text. */
  labelPosition: Position
  /** The value as written (with its emphasis or code marks), `null` when empty. */
  valuePosition: Position | null
}

/** One `### Requirement: Name` of a delta spec (or one FROM/TO pair of its RENAMED section). */
export interface DeltaRequirement {
  section: DeltaSection
  /** The name as written; for a rename `Old → New`. */
  name: string
  /** The heading (or the FROM item of a rename). */
  headingPosition: Position
  /** Heading to the end of its last block. */
  position: Position
  /** Each `#### Scenario:` block as one criterion: its name, then its WHEN/THEN lines as a person reads them. */
  scenarios: ContractItem[]
  /** The tiers the requirement states, in order. */
  tiers: TierStatement[]
}

/** What OpenSpec's authors expect and a spec lacks (a requirement without a scenario, a scenario without WHEN or THEN): the problem's words, at the heading. */
export interface DeltaExpectation {
  message: string
  place: Position
}

/** What one delta spec holds. */
export interface DeltaSpec {
  requirements: DeltaRequirement[]
  problems: FileProblem[]
  /** The problems that are a requirement without a scenario or a scenario without WHEN or THEN, each at its heading. */
  expectations: DeltaExpectation[]
}

/** How a spec is read: a change's delta spec (`## ADDED Requirements`…), or with `main`, a capability's spec (`## Requirements`, section `CURRENT`). */
export interface DeltaSpecOptions {
  main?: boolean
}

// `Requirement: Name` and `Scenario: Name`, with a full-width colon too, as editors in Chinese and Japanese write it.
const requirementHeading = /^Requirement\s*[:：]\s*(.*)$/i
const scenarioHeading = /^Scenario\s*[:：]\s*(.*)$/i
const sectionHeading = /^(ADDED|MODIFIED|REMOVED|RENAMED)\s+Requirements?\s*$/i
/** What reads as a requirement or scenario heading to the eye, where markdown made no heading. */
const unitHeadingShape: HeadingShape = {
  hint: (line) => /requirement|scenario/i.test(line),
  subject: (text) => requirementHeading.test(text.trim()) || scenarioHeading.test(text.trim())
}
const mainSectionHeading = /^Requirements\s*$/i
// A keyword opening a clause, bold or plain, with or without a colon: `- **WHEN** x`, `**THEN:** y`, `GIVEN z`.
const keywordAtStart = /^(\*\*|__)?\s*(GIVEN|WHEN|THEN|AND|OR|BUT)\s*(?::\s*)?(?:\1)?\s*:?\s*(?=\S|$)/i
// Elsewhere in a clause only a keyword that stands out counts: in capitals or in bold.
const keywordInside = (word: string) => new RegExp(`(?:\\b${word}\\b|\\*\\*\\s*${word}\\s*:?\\s*\\*\\*)`, word === word.toUpperCase() ? '' : 'i')
// `**Verification:** auto`, `**Verification**: auto`, `Verification: auto`, in a paragraph or an item.
const labelLine = /^\s*(?:[-*+]\s+)?(\*\*|__)?([A-Za-z][A-Za-z ]{0,40}?)\s*(?::\s*\1|\1\s*:|:)\s*(.*?)\s*$/
const renameLine = /^\s*(FROM|TO)\s*[:：]\s*(.*)$/i

const sectionList = '`## ADDED Requirements`, `## MODIFIED Requirements`, `## REMOVED Requirements` or `## RENAMED Requirements`'

/**
 * Read an OpenSpec delta spec (`changes/<id>/specs/<capability>/spec.md`):
 * each `### Requirement:` under its `## ADDED|MODIFIED|REMOVED|RENAMED
 * Requirements` section, with its `#### Scenario:` blocks; the FROM/TO
 * pairs of a RENAMED section. Text in any language reads the same: only the
 * template's headings and keywords are matched. What is not in this shape is
 * a problem naming its line, never skipped in silence.
 */
export function readDeltaSpec(file: string, text: string, tree: Root, {main = false}: DeltaSpecOptions = {}): DeltaSpec {
  const requirements: DeltaRequirement[] = []
  const problems: FileProblem[] = []
  const expectations: DeltaExpectation[] = []
  const sections = main ? '`## Requirements`' : sectionList
  const problem = (node: RootContent, message: string) => problems.push({file, line: node.position?.start.line ?? null, message})
  let section: DeltaSection | null = null
  let sectionTitle: string | null = null
  let requirement: {entry: DeltaRequirement; body: RootContent[]} | null = null
  let scenario: {heading: Heading; name: string; body: RootContent[]} | null = null

  const closeScenario = () => {
    if (!scenario || !requirement) return
    requirement.entry.scenarios.push(readScenario(text, scenario.heading, scenario.name, scenario.body, expectations))
    scenario = null
  }
  const closeRequirement = () => {
    closeScenario()
    if (!requirement) return
    const {entry, body} = requirement
    entry.position = {start: entry.headingPosition.start, end: (body.at(-1)?.position ?? entry.headingPosition).end}
    entry.tiers = body.flatMap((node) => tierStatements(text, node))
    if (entry.scenarios.length === 0 && (entry.section === 'ADDED' || entry.section === 'MODIFIED' || entry.section === 'CURRENT')) {
      const what = entry.section === 'CURRENT' ? 'requirement' : `${entry.section} requirement`
      // In OpenSpec's own words too: `openspec validate` refuses it the same.
      const theirs =
        entry.section === 'CURRENT'
          ? 'Requirement must have at least one scenario'
          : `${entry.section} ${JSON.stringify(entry.name)} must include at least one scenario`
      const message = `Unexpected ${what} ${JSON.stringify(entry.name)} without a scenario (openspec validate: ${theirs}), expected at least one \`#### Scenario: …\` block with WHEN and THEN lines`
      problems.push({file, line: entry.headingPosition.start.line, message})
      expectations.push({message, place: entry.headingPosition})
    }
    // What a change removes is never verified: scenarios still under it would go unchecked in silence.
    if (entry.scenarios.length > 0 && entry.section === 'REMOVED') {
      const count = entry.scenarios.length === 1 ? 'a scenario, which is' : `${entry.scenarios.length} scenarios, which are`
      problems.push({
        file,
        line: entry.headingPosition.start.line,
        message: `Unexpected REMOVED requirement ${JSON.stringify(entry.name)} with ${count} never verified, expected its **Reason** and **Migration** only, or the requirement under \`## MODIFIED Requirements\` to keep its scenarios`
      })
    }
    requirements.push(entry)
    requirement = null
  }

  for (const node of tree.children) {
    if (node.type === 'heading') {
      const title = toString(node).trim()
      const isRequirement = requirementHeading.exec(title)
      const isScenario = scenarioHeading.exec(title)
      if (node.depth <= 2) {
        closeRequirement()
        const match = main ? mainSectionHeading.exec(title) : sectionHeading.exec(title)
        section = match ? (main ? 'CURRENT' : (match[1].toUpperCase() as DeltaSection)) : null
        sectionTitle = match ? null : `${'#'.repeat(node.depth)} ${title}`
        if (isRequirement || isScenario)
          problem(
            node,
            `Unexpected ${'#'.repeat(node.depth)} ${title} heading, expected ${isRequirement ? '`### Requirement: Name`' : '`#### Scenario: Name`'}`
          )
        continue
      }
      if (node.depth === 3) {
        closeRequirement()
        if (isRequirement && section) {
          requirement = {
            entry: {section, name: isRequirement[1].trim(), headingPosition: node.position!, position: node.position!, scenarios: [], tiers: []},
            body: []
          }
        } else if (isRequirement) {
          const where = sectionTitle === null ? 'before any section' : `under \`${sectionTitle}\``
          problem(node, `Unexpected requirement ${JSON.stringify(isRequirement[1].trim())} ${where}, expected it under ${sections}`)
        } else if (isScenario) {
          problem(node, 'Unexpected `### Scenario:` heading, expected `#### Scenario: Name` under a `### Requirement: Name`')
        } else if (section && /requirement/i.test(title)) {
          // A note (`### Notes`) is OpenSpec's to tolerate; a heading naming a requirement that does not read as one would drop it.
          problem(
            node,
            `Unexpected heading ${JSON.stringify('### ' + title)} in the ${section === 'CURRENT' ? 'Requirements' : section} section, expected \`### Requirement: Name\``
          )
        }
        continue
      }
      // OpenSpec reads every fourth-level heading under a requirement as a scenario (`#### Edge case`), `Scenario:` or not.
      if (node.depth === 4 && (isScenario || requirement)) {
        closeScenario()
        const name = isScenario ? isScenario[1].trim() : title
        if (requirement) {
          requirement.body.push(node)
          scenario = {heading: node, name, body: []}
        } else if (section) problem(node, `Unexpected scenario ${JSON.stringify(name)} outside a requirement, expected it under a \`### Requirement: Name\``)
        continue
      }
      if (isRequirement || isScenario) {
        problem(node, `Unexpected ${'#'.repeat(node.depth)} ${title} heading, expected ${isRequirement ? '`### Requirement: Name`' : '`#### Scenario: Name`'}`)
        continue
      }
      // Another heading of level 4 or deeper ends a scenario: what follows belongs to the requirement.
      if (node.depth === 4) closeScenario()
    }
    // A scenario's lines are the requirement's too: its tier may be stated there, and it ends where they end.
    scenario?.body.push(node)
    if (requirement) requirement.body.push(node)
    else if (section === 'RENAMED') appendAll(requirements, readRenames(file, node, problems))
    else if (section === 'REMOVED') appendAll(requirements, readRemovedItems(node))
  }
  closeRequirement()

  if (requirements.length === 0) {
    problems.push({
      file,
      line: null,
      message: `Unexpected ${main ? 'spec' : 'delta spec'} without a requirement, expected ${sections} with \`### Requirement: Name\` headings`
    })
  }
  appendAll(problems, hiddenUnitHeadings(file, text, tree, unitHeadingShape, 'OpenSpec'))
  // In the order of the file; what is about the whole file last.
  problems.sort((a, b) => (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY))
  return {requirements, problems, expectations}
}

/** A scenario as one criterion: `Name: WHEN …; THEN …`, and what the lint expects when it has no WHEN (or GIVEN) or no THEN. */
function readScenario(text: string, heading: Heading, name: string, body: RootContent[], expectations: DeltaExpectation[]): ContractItem {
  const clauses = body.flatMap((node) => clausesOf(text, node))
  // OpenSpec's validator asks nothing of a scenario's lines: a scenario without its condition or outcome is the lint's to say (a GIVEN is a condition too), and never holds the gate.
  const has = (word: string) => clauses.some((clause) => clause.keyword === word || keywordInside(word).test(clause.text))
  const missing = [...(has('WHEN') || has('GIVEN') ? [] : ['WHEN']), ...(has('THEN') ? [] : ['THEN'])]
  if (missing.length > 0) {
    const message = `Unexpected scenario ${JSON.stringify(name)} without ${missing.join(' or ')}, expected \`- **WHEN** …\` and \`- **THEN** …\` lines`
    expectations.push({message, place: heading.position!})
  }
  let joined = ''
  for (const clause of clauses) {
    if (joined === '') joined = clause.text
    // A line that opens with a keyword is a clause of its own; a line without one continues the line above it.
    else if (clause.keyword) joined += '; ' + clause.text
    else joined += (/[:：]$/.test(joined) ? ' ' : ', ') + clause.text
  }
  const end = (body.at(-1)?.position ?? heading.position!).end
  return {text: joined === '' ? name : `${name}: ${joined}`, position: {start: heading.position!.start, end}, check: null}
}

interface Clause {
  /** The keyword it opens with, in capitals, or `null`. */
  keyword: string | null
  text: string
}

/** The lines of a block as clauses: a paragraph's lines, each item of a list (nested items after their parent). */
function clausesOf(text: string, node: RootContent): Clause[] {
  if (node.type === 'paragraph') return linesOf(sourceOf(text, node))
  if (node.type === 'list') {
    return node.children.flatMap((item) => {
      const [first, ...rest] = item.children
      const own = first?.type === 'paragraph' ? linesOf(sourceOf(text, first)) : first ? clausesOf(text, first) : []
      return [...own, ...rest.flatMap((child) => clausesOf(text, child))]
    })
  }
  const written = sourceOf(text, node).replace(/\s+/g, ' ').trim()
  return written === '' ? [] : [{keyword: null, text: written}]
}

/**
 * A paragraph's lines as clauses: a line that opens with a keyword starts a
 * clause, a line without one continues the clause above (a wrapped line, or a
 * `**THEN**` line the parser joined to the item above it).
 */
function linesOf(written: string): Clause[] {
  const clauses: Clause[] = []
  for (const line of written.split('\n')) {
    const next = clause(line)
    const last = clauses.at(-1)
    if (next.text === '') continue
    if (last && next.keyword === null) last.text += ' ' + next.text
    else clauses.push(next)
  }
  return clauses
}

/** One line: its keyword unwrapped from bold (`**WHEN** x` reads `WHEN x`), the rest as written. */
function clause(line: string): Clause {
  const trimmed = line.trim()
  const match = keywordAtStart.exec(trimmed)
  // A plain keyword opens a clause in capitals or capitalised (`WHEN`, `When`): `and keeps…` is a wrapped line.
  if (!match || (!match[1] && !/^[A-Z]/.test(match[2]))) return {keyword: null, text: trimmed}
  const keyword = match[2].toUpperCase()
  const rest = trimmed.slice(match[0].length).trim()
  // A plain keyword stays as written; a bold one is shown as the word itself.
  const word = match[1] ? keyword : match[2]
  return {keyword, text: rest === '' ? word : `${word} ${rest}`}
}

/** The `**Verification:** value` lines of a block, outside code. */
export function tierStatements(text: string, node: Root | RootContent): TierStatement[] {
  if (node.type === 'code' || node.type === 'html') return []
  if (node.type === 'paragraph') {
    const start = node.position?.start ?? {line: 1, column: 1, offset: 0}
    let lineOffset = start.offset ?? 0
    return sourceOf(text, node)
      .split('\n')
      .flatMap((line, index) => {
        const at = lineOffset
        lineOffset += line.length + 1
        const match = labelLine.exec(line)
        // A label alone on its line (`**Verification:**` over a list of checks) is prose, no tier.
        if (!match || resolveFieldKey(match[2]) !== 'verification' || match[3].trim() === '') return []
        // The paragraph's first line starts at its column; the others at the line's start.
        const point = (column: number) => ({line: start.line + index, column: (index === 0 ? start.column : 1) + column, offset: at + column})
        const span = (from: number, length: number): Position => ({start: point(from), end: point(from + length)})
        const labelAt = line.indexOf(match[2])
        const valueAt = line.trimEnd().length - match[3].length
        return [
          {
            value: match[3].replace(/^(\*\*|__|`+)(.*?)\1$/, '$2').trim(),
            line: start.line + index,
            labelPosition: span(labelAt, match[2].length),
            valuePosition: match[3] === '' ? null : span(valueAt, match[3].length)
          }
        ]
      })
  }
  return 'children' in node ? (node.children as RootContent[]).flatMap((child) => tierStatements(text, child)) : []
}

/** The requirements a REMOVED section lists as items (`` - `### Requirement: Old` ``), as OpenSpec reads them: shown, never verified. */
function readRemovedItems(node: RootContent): DeltaRequirement[] {
  if (node.type !== 'list') return []
  const removed: DeltaRequirement[] = []
  for (const item of node.children) {
    const match = /^[`*_]*#{0,6}\s*Requirement\s*[:：]\s*(.+?)[`*_]*$/i.exec(toString(item).trim())
    if (match && item.position)
      removed.push({section: 'REMOVED', name: match[1].trim(), headingPosition: item.position, position: item.position, scenarios: [], tiers: []})
  }
  return removed
}

/**
 * The FROM/TO pairs of a RENAMED section's list (`- FROM: \`### Requirement: Old\``,
 * `- TO: \`### Requirement: New\``): shown, never verified. A FROM without
 * its TO, or a TO without its FROM, is a problem.
 */
function readRenames(file: string, node: RootContent, problems: FileProblem[]): DeltaRequirement[] {
  if (node.type !== 'list') return []
  const renames: DeltaRequirement[] = []
  let from: {name: string; position: Position} | null = null
  const unpaired = (line: number | null, which: string) =>
    problems.push({
      file,
      line,
      message: `Unexpected ${which} in the RENAMED section, expected a \`- FROM: ### Requirement: Old\` item followed by a \`- TO: ### Requirement: New\` item`
    })
  for (const item of node.children) {
    const match = renameLine.exec(toString(item).trim())
    const name = (match?.[2] ?? '')
      .replace(/^#+\s*/, '')
      .replace(requirementHeading, '$1')
      .trim()
    if (match?.[1]?.toUpperCase() === 'FROM') {
      if (from) unpaired(from.position.start.line, 'FROM without TO')
      from = {name, position: item.position!}
    } else if (match && from) {
      renames.push({
        section: 'RENAMED',
        name: `${from.name} → ${name}`,
        headingPosition: from.position,
        position: {start: from.position.start, end: item.position!.end},
        scenarios: [],
        tiers: []
      })
      from = null
    } else {
      unpaired(item.position?.start.line ?? null, match ? 'TO without FROM' : `item ${JSON.stringify(toString(item).trim().slice(0, 60))}`)
    }
  }
  if (from) unpaired(from.position.start.line, 'FROM without TO')
  return renames
}

/** Whether a requirement of this section is verified: what a change adds or modifies (and a capability's current one, when linted), not what it removes or renames. */
export function verified(section: DeltaSection): boolean {
  return section === 'ADDED' || section === 'MODIFIED' || section === 'CURRENT'
}

/**
 * A requirement as a contract: no id (OpenSpec names requirements), labelled
 * `capability: Name`; a REMOVED or RENAMED one has tier `auto`, no slice and
 * a label that says so.
 */
export function toContract(requirement: DeltaRequirement, capability: string, change: string, file: string, problems: FileProblem[]): Contract {
  const label = `${capability}: ${requirement.name}`
  const base = {
    id: null,
    name: requirement.name,
    dialect: 'bold' as const,
    position: requirement.position,
    headingPosition: requirement.headingPosition,
    steps: [],
    sliceHeading: null,
    fields: []
  }
  if (!verified(requirement.section)) {
    return {
      ...base,
      label: `${label} (${requirement.section} by ${change}: not verified)`,
      tier: 'auto',
      effectiveTier: 'auto',
      criteria: requirement.scenarios,
      slice: null
    }
  }
  const tier = statedTier(file, requirement.tiers, `requirement ${JSON.stringify(requirement.name)}`, problems)
  return {...base, label, tier, effectiveTier: effectiveTier(tier), criteria: requirement.scenarios, slice: isSliceId(change) ? change : null}
}

/**
 * The tier a requirement or change states, as a contract holds it: `auto`,
 * `verify` (`manual` reads as `verify`), an invalid tier as written (a
 * problem; it reads as `verify`), or `null` when it states none. Two tiers
 * that disagree are a problem and read as `verify`.
 */
export function statedTier(file: string, statements: TierStatement[], what: string, problems: FileProblem[]): string | null {
  const values = statements.map((statement) => {
    const value = readTier(statement.value)
    if (value.toLowerCase() === 'manual') return 'verify'
    if (!isTier(value))
      problems.push({
        file,
        line: statement.line,
        message: `Unexpected tier ${JSON.stringify(value)} in ${what}, expected \`auto\` or \`verify\` (\`manual\` reads as \`verify\`)`
      })
    return value
  })
  if (new Set(values.map(effectiveTier)).size > 1) {
    problems.push({file, line: statements[1].line, message: `Unexpected second tier in ${what}, expected one tier (it reads as \`verify\`)`})
    return 'verify'
  }
  return values[0] ?? null
}
