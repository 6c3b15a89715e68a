import {appendAll} from '../append.js'
import {splitCheck} from '../criterion.js'
import {analyzeContracts} from '../extract.js'
import type {Contract, ContractAnalysis, ContractField, ContractItem} from '../types.js'
import type {Heading, List, Root} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {visit} from 'unist-util-visit'
import {parseMarkdown} from './markdown.js'

/**
 * A user story heading as spec-kit's template writes it, in any language:
 * words, a number, a dash (or colon), a title, and maybe a parenthesised
 * priority (`User Story 2 – Export (Priority: P3)`, `用户故事 1 - 导出（优先级：P1）`).
 */
const storyHeading = /^\D*?\S\s*\d+\s*[-–—:：]\s*\S/u

/**
 * The text with the full-width colon of a bold label (`**验收场景**：`,
 * `**独立测试：**`) read as the colon the contracts reader knows; one
 * character for one, so every position stays the user's.
 */
function withAsciiLabelColons(text: string): string {
  return text.replace(/(\*\*[^*\n]+?\*\*)：|(\*\*[^*\n]+?)：(\*\*)/gu, (_, after: string | undefined, before: string | undefined, close: string | undefined) =>
    after !== undefined ? `${after}:` : `${before}:${close}`
  )
}

/** What a spec.md holds: its title, its user stories read as contracts, and the line where its stories would be. */
export interface Stories extends ContractAnalysis {
  title: string | null
  sectionLine: number
}

/**
 * The user stories of a spec-kit `spec.md`: each third-level heading shaped
 * as the template's story heading starts a contract, read by the contracts
 * reader (its fields, items and positions as the lint rules see them).
 */
export function readStories(file: string, text: string): Stories {
  const {tree, vfile} = parseMarkdown(file, withAsciiLabelColons(text))
  const names: string[] = []
  let title: string | null = null
  let sectionLine: number | null = null
  visit(tree, 'heading', (heading: Heading) => {
    const words = toString(heading).trim()
    if (heading.depth === 1 && title === null) title = words.replace(/^[^:：]*[:：]\s*/u, '') || words
    if (heading.depth === 2 && sectionLine === null) sectionLine = heading.position?.start.line ?? null
    if (heading.depth === 3 && storyHeading.test(words)) names.push(words)
  })
  if (names.length === 0) {
    const older = readOlderStory(tree, text)
    if (older) return {...older, title, sectionLine: sectionLine ?? 1}
  }
  const analysis = analyzeContracts(tree, vfile, {names})
  return {...analysis, title, sectionLine: sectionLine ?? 1}

  /** The one story of the template's first versions: `### Primary User Story`, then `### Acceptance Scenarios` and their list. */
  function readOlderStory(root: Root, source: string): ContractAnalysis | null {
    const blocks = root.children
    const at = blocks.findIndex((block, index) => block.type === 'heading' && block.depth === 3 && blocks[index + 1]?.type === 'list' && isScenarios(block, blocks[index + 1] as List))
    if (at === -1) return null
    const list = blocks[at + 1] as List
    // The story is the third-level heading before the scenarios in their section, else the scenarios' own heading.
    let storyAt = at
    for (let index = at - 1; index >= 0; index--) {
      const block = blocks[index]!
      if (block.type !== 'heading' || block.depth > 3) continue
      if (block.depth === 3) storyAt = index
      break
    }
    const story = blocks[storyAt] as Heading
    const analysis = analyzeContracts(root, vfile, {names: [toString(story).trim()]})
    const found = analysis.contracts.find((contract) => contract.headingPosition.start.line === story.position?.start.line)
    if (!found || !list.position) return null
    const contract: Contract = {...found, position: {start: found.position.start, end: list.position.end}, criteria: list.children.flatMap((item) => scenarioItem(item.children[0], source))}
    return {contracts: [contract], problems: analysis.problems}
  }
}

/** Whether a heading and the list after it are acceptance scenarios: so named, or items of bold Given/When/Then words in any language. */
function isScenarios(heading: Heading, list: List): boolean {
  if (/scenario/i.test(toString(heading))) return true
  return list.children.every((item) => {
    const first = item.children[0]
    return first?.type === 'paragraph' && first.children[0]?.type === 'strong' && first.children.filter((child) => child.type === 'strong').length >= 3
  })
}

/** A scenario as the contracts reader gives an item: its text as written, without emphasis marks, and its check. */
function scenarioItem(block: List['children'][number]['children'][number] | undefined, source: string): ContractItem[] {
  if (block?.type !== 'paragraph' || !block.position) return []
  const written = source.slice(block.position.start.offset ?? 0, block.position.end.offset ?? 0)
  const {text, check} = splitCheck(written.replace(/\*\*|__/g, '').replace(/\s+/g, ' ').trim())
  return [{text, position: block.position, check}]
}

/** The labels of a story's fields, when written in English; in another language the fields are found by their place in the template. */
const scenariosLabel = /acceptance|scenario/i
const independentTestLabel = /independent|test/i

/** The priority a story heading ends with, left out of the contract's name. */
const trailingPriority = /\s*[(（][^()（）]*\bP\d+\s*[)）]\s*$/u

/**
 * A user story as a contract: its criteria the items of its acceptance
 * scenarios, its steps the text of its independent test, its tier its own
 * (`manual` is `verify`).
 */
export function asStory(contract: Contract): Contract {
  const scenarios = findField(contract.fields, scenariosLabel, (field) => field.hasList)
  const scenariosAt = scenarios ? contract.fields.indexOf(scenarios) : -1
  const test = findField(contract.fields, independentTestLabel, (_, index) => index === scenariosAt - 1)
  const steps: ContractItem[] = []
  if (test && test !== scenarios) {
    if (test.value !== '') steps.push({text: test.value, position: test.valuePosition ?? test.position, check: null})
    else {
      appendAll(steps, test.items)
      appendAll(steps, test.unread.map((unread) => ({text: unread.text, position: unread.position, check: null})))
    }
  }
  const name = contract.name.replace(trailingPriority, '')
  const tier = contract.tier !== null && /^manual$/i.test(contract.tier) ? 'verify' : contract.tier
  return {
    ...contract,
    name,
    label: name,
    tier,
    effectiveTier: tier === 'auto' ? 'auto' : 'verify',
    criteria: scenarios ? scenarios.items : contract.criteria,
    steps
  }
}

/**
 * The field whose label matches `english`, else (for labels in another
 * language) the field at the place the template gives it.
 */
function findField(fields: readonly ContractField[], english: RegExp, atPlace: (field: ContractField, index: number) => boolean): ContractField | undefined {
  const unknown = fields.filter((field) => field.key === null || field.key === 'acceptanceCriteria' || field.key === 'steps')
  return unknown.find((field) => english.test(field.label)) ?? fields.filter((field, index) => field.key === null && atPlace(field, index)).at(-1)
}
