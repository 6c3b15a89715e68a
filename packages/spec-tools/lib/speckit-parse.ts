import {analyzeContracts, appendAll, findHiddenHeadings, splitCheck, unreadHeadingProblem} from '@verification-tiers/contracts'
import type {Contract, ContractAnalysis, ContractField, ContractItem, HeadingShape} from '@verification-tiers/contracts'
import type {Heading, List, Root, RootContent} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {parseMarkdown} from './markdown.js'
import type {VFile} from 'vfile'

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
 * The user stories of a spec-kit `spec.md`, read by the contracts reader
 * (their fields, items and positions as the lint rules see them). Which
 * headings are stories is decided by the template's structure, never by a
 * heading's words alone: see `storyHeadings`. Code and HTML blocks inside
 * a story are examples or the template's comments: they set no field.
 */
export function readStories(file: string, text: string): Stories {
  const {tree, vfile} = parseMarkdown(file, withAsciiLabelColons(text))
  let title: string | null = null
  let sectionLine: number | null = null
  for (const block of tree.children) {
    if (block.type !== 'heading') continue
    if (block.depth === 1 && title === null) {
      const words = toString(block).trim()
      title = words.replace(/^[^:：]*[:：]\s*/u, '') || words
    }
    if (block.depth === 2 && sectionLine === null) sectionLine = block.position?.start.line ?? null
  }
  // The template's first shape, where no story is numbered: `### Primary User Story`, then `### Acceptance Scenarios`.
  const older = numberedStoryIn(tree.children) ? null : olderStoryShape(tree.children)
  const read = older ? readOlderStory(tree, vfile, text, older) : null
  const analysis = read ?? readNumberedStories(tree, vfile)
  // The stories' tree holds no other heading: the search for story headings markdown hid runs on the whole file.
  const problems = analysis.problems.filter((problem) => problem.kind !== 'unread-heading')
  for (const hidden of findHiddenHeadings(vfile.value as string, tree, storyHeadingShape)) problems.push(unreadHeadingProblem(hidden))
  problems.sort((a, b) => a.place.start.line - b.place.start.line)
  return {contracts: analysis.contracts, problems, title, sectionLine: sectionLine ?? 1}
}

/** The stories of the template's current shape (`### User Story 2 - Title (Priority: P2)`), read by the contracts reader. */
function readNumberedStories(tree: Root, vfile: VFile): ContractAnalysis {
  const stories = storyHeadings(tree.children)
  const lines = new Set(stories.map((index) => (tree.children[index] as Heading).position?.start.line))
  const analysis = analyzeContracts(storySections(tree, stories), vfile, {
    names: stories.map((index) => toString(tree.children[index]).trim()),
    holdsItems: holdsScenarios
  })
  return {contracts: analysis.contracts.filter((contract) => lines.has(contract.headingPosition.start.line)), problems: analysis.problems}
}

/** Whether some heading names a numbered story: `User Story 2`, or a title ending with a priority. */
function numberedStoryIn(blocks: readonly RootContent[]): boolean {
  return blocks.some((block) => block.type === 'heading' && storyHeadingShape.subject(toString(block)))
}

/** The blocks of the template's first shape: its story heading, and the heading of its scenarios. */
interface OlderStoryShape {
  story: number
  scenarios: number
}

/**
 * The template's first shape: a heading titled Acceptance Scenarios (in
 * another language, a third-level heading a list of Given/When/Then items
 * follows), and the story it is about, the heading before it at its level
 * (`### Primary User Story`), else the scenarios' own heading.
 */
function olderStoryShape(blocks: readonly RootContent[]): OlderStoryShape | null {
  const scenarios = blocks.findIndex(
    (block, index) =>
      block.type === 'heading' &&
      (olderScenariosTitle.test(toString(block).trim()) ||
        (block.depth === 3 && blocks[index + 1]?.type === 'list' && isScenarios(block, blocks[index + 1] as List)))
  )
  if (scenarios === -1) return null
  const depth = (blocks[scenarios] as Heading).depth
  for (let index = scenarios - 1; index >= 0; index--) {
    const block = blocks[index]
    if (block.type !== 'heading' || block.depth > depth) continue
    return {story: block.depth === depth ? index : scenarios, scenarios}
  }
  return {story: scenarios, scenarios}
}

// The scenarios' heading of the template's first shape: `### Acceptance Scenarios`.
const olderScenariosTitle = /^acceptance\s+scenarios?\b/i

/**
 * The one story of the template's first shape: its criteria every item of
 * every list in its scenarios' section (under the group headings there too,
 * `#### Scenario 1: …`), and each code block there, a scenario written in
 * a fence, as one; its fields the tier alone, so no other list of its text
 * is taken for its scenarios.
 */
function readOlderStory(tree: Root, vfile: VFile, source: string, {story, scenarios}: OlderStoryShape): ContractAnalysis | null {
  const blocks = tree.children
  const heading = blocks[story] as Heading
  const analysis = analyzeContracts(storySections(tree, [story]), vfile, {names: [toString(heading).trim()]})
  const found = analysis.contracts.find((contract) => contract.headingPosition.start.line === heading.position?.start.line)
  if (!found) return null
  const depth = (blocks[scenarios] as Heading).depth
  const criteria: ContractItem[] = []
  let end = blocks[scenarios].position!.end
  for (let index = scenarios + 1; index < blocks.length; index++) {
    const block = blocks[index]
    if (block.type === 'heading' && block.depth <= depth) break
    end = block.position?.end ?? end
    if (block.type === 'list') for (const item of block.children) appendAll(criteria, scenarioItem(item.children[0], source))
    if (block.type === 'code' && block.position) {
      const written = block.value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join('; ')
      if (written !== '') criteria.push({text: written, position: block.position, check: null})
    }
  }
  const fields = found.fields.filter((field) => field.key === 'verification')
  const contract: Contract = {...found, fields, position: {start: found.position.start, end}, criteria, steps: []}
  return {contracts: [contract], problems: analysis.problems.filter((problem) => problem.kind !== 'unread-heading')}
}

// The template's story heading in English, at any level and with or without a title: `User Story 2`, `Story Two – Export`.
const englishStory = /\bstor(?:y|ies)\b/i
// A number, as a digit of any script or as an English word.
const numbered = /\p{Nd}|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/iu
// The section the template puts its stories in: `## User Scenarios & Testing`, `## User Stories`.
const englishStoriesSection = /\buser\s+(?:scenarios?|stor(?:y|ies))\b/i
// A story's own bold labels in English: `**Acceptance Scenarios**:`, `**Independent Test**:`, `**Why this priority**:`.
const storyLabel = /^(?:acceptance\s+scenarios?|independent\s+tests?|why\s+this\s+priority)\b/i

/** What reads as a story heading to the eye, where markdown made no heading: a numbered English story, or a heading ending with a priority. */
const storyHeadingShape: HeadingShape = {
  hint: (line) => numbered.test(line),
  subject: (text) => (englishStory.test(text) && numbered.test(text)) || trailingPriority.test(text.replace(/(?:\s*(?:-->|<\/[^<>\n]*>))*\s*$/, ''))
}

/**
 * The story headings of a spec, by the template's structure:
 *
 * - a heading whose own blocks (up to the next heading) hold a story's
 *   fields: a list of Given/When/Then items, or a story's English labels;
 * - a heading that names a numbered story in English, at any level
 *   (`## User Story 2 (Priority: P2)`);
 * - in the section the template keeps its stories in (`## User Scenarios &
 *   Testing`, in any language: the section holding a story by its fields),
 *   a numbered heading at the stories' level (`### 用户故事 2`).
 *
 * Other headings are not stories, and not problems: `## Clarifications`
 * and its `### Session 2025-01-04`, `### Edge Cases`, `### Functional
 * Requirements`, `### Stage 1: …`.
 */
function storyHeadings(blocks: readonly RootContent[]): number[] {
  const stories = new Set<number>()
  // Each heading's section: the nearest heading above it of a higher rank.
  const parent = new Map<number, number | null>()
  const open: number[] = []
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]
    if (block.type !== 'heading') continue
    while (open.length > 0 && (blocks[open.at(-1)!] as Heading).depth >= block.depth) open.pop()
    parent.set(index, open.at(-1) ?? null)
    open.push(index)
    const words = toString(block)
    if (holdsStoryFields(blocks, index + 1) || (englishStory.test(words) && numbered.test(words))) stories.add(index)
  }
  // The sections that hold stories, by the template's English title or by a story in them; in each, the numbered headings at the stories' level.
  const sections = new Set<number>()
  for (const [index, section] of parent) {
    if (englishStoriesSection.test(toString(blocks[index]))) sections.add(index)
    if (section !== null && stories.has(index)) sections.add(section)
  }
  for (const section of sections) {
    const inside = [...parent].filter(([, of]) => of === section).map(([index]) => index)
    let depth = 7
    for (const at of inside) if (stories.has(at)) depth = Math.min(depth, (blocks[at] as Heading).depth)
    if (depth === 7) depth = (blocks[section] as Heading).depth + 1
    for (const at of inside) {
      if ((blocks[at] as Heading).depth === depth && numbered.test(toString(blocks[at]))) stories.add(at)
    }
  }
  return [...stories].sort((a, b) => a - b)
}

/** Whether the blocks from `from` up to the next heading hold a story's fields. */
function holdsStoryFields(blocks: readonly RootContent[], from: number): boolean {
  for (let index = from; index < blocks.length && blocks[index].type !== 'heading'; index++) {
    const block = blocks[index]
    if (block.type === 'list' && isScenarioList(block)) return true
    if (block.type === 'paragraph' && block.children[0]?.type === 'strong' && storyLabel.test(toString(block.children[0]).trim())) return true
  }
  return false
}

/**
 * A tree of the stories' sections alone: each story heading and its blocks
 * up to the next heading of its rank or above, or the next story, without
 * code or HTML blocks (an example or a template comment sets no field).
 */
function storySections(tree: Root, stories: readonly number[]): Root {
  const children: RootContent[] = []
  const blocks = tree.children
  const isStory = new Set(stories)
  for (const index of stories) {
    const depth = (blocks[index] as Heading).depth
    // Every story at one rank, its own headings below it: a story above a deeper one is no group of it.
    children.push({...(blocks[index] as Heading), depth: 2})
    for (let at = index + 1; at < blocks.length && !isStory.has(at); at++) {
      const block = blocks[at]
      if (block.type === 'heading' && block.depth <= depth) break
      if (block.type === 'heading') children.push({...block, depth: Math.max(3, block.depth) as Heading['depth']})
      else if (block.type !== 'code' && block.type !== 'html') children.push(withoutExamples(block))
    }
  }
  return {type: 'root', children, position: tree.position}
}

/** A block without the code and HTML blocks nested in it (a list item's example). */
function withoutExamples<Block extends RootContent>(block: Block): Block {
  if (!('children' in block) || block.type === 'paragraph' || block.type === 'heading') return block
  const children = (block.children as RootContent[]).filter((child) => child.type !== 'code' && child.type !== 'html').map(withoutExamples)
  return {...block, children}
}

/** Whether a heading and the list after it are acceptance scenarios: so named, or items of bold Given/When/Then words in any language. */
function isScenarios(heading: Heading, list: List): boolean {
  return /scenario/i.test(toString(heading)) || isScenarioList(list)
}

/** Whether every item of a list opens with a bold word and holds at least three: Given, When, Then, in any language. */
function isScenarioList(list: List): boolean {
  return (
    list.children.length > 0 &&
    list.children.every((item) => {
      const first = item.children[0]
      return first?.type === 'paragraph' && first.children[0]?.type === 'strong' && first.children.filter((child) => child.type === 'strong').length >= 3
    })
  )
}

/** A scenario as the contracts reader gives an item: its text as written, without emphasis marks, and its check. */
function scenarioItem(block: List['children'][number]['children'][number] | undefined, source: string): ContractItem[] {
  if (block?.type !== 'paragraph' || !block.position) return []
  const written = source.slice(block.position.start.offset ?? 0, block.position.end.offset ?? 0)
  const {text, check} = splitCheck(
    written
      .replace(/\*\*|__/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  )
  return [{text, position: block.position, check}]
}

/**
 * Whether a story's field holds its scenarios, so that every list after it
 * is read as scenarios and a table or quote there is named as unread, as
 * under Acceptance Criteria: its English label, or a label in another
 * script over a list (the template puts no other list in a story).
 */
function holdsScenarios(field: ContractField): boolean {
  return field.key === null && (scenariosLabel.test(field.label) || (field.hasList && !/[A-Za-z]/.test(field.label)))
}

/** The labels of a story's fields, when written in English; in another language the fields are found by their place in the template. */
const scenariosLabel = /acceptance|scenario/i
const independentTestLabel = /independent|test/i

/** The priority a story heading ends with, in any language (`(Priority: P1)`, `（优先级：P1）`), left out of the contract's name. */
const trailingPriority = /\s*[(（][^()（）]*\bP\d+\s*[)）]\s*$/u

/**
 * A user story as a contract: its criteria the items of its acceptance
 * scenarios, its steps the text of its independent test, its tier its own
 * (`manual` is `verify`).
 */
export function asStory(contract: Contract): Contract {
  // The scenarios are a list: a label such as `Independent test / acceptance` over a paragraph is the test.
  const scenarios = findField(
    contract.fields,
    scenariosLabel,
    (field) => field.hasList,
    (field) => field.hasList
  )
  const scenariosAt = scenarios ? contract.fields.indexOf(scenarios) : -1
  const test = findField(
    contract.fields,
    independentTestLabel,
    (_, index) => index === scenariosAt - 1,
    (field) => field !== scenarios
  )
  const steps: ContractItem[] = []
  if (test && test !== scenarios) {
    if (test.value !== '') steps.push({text: test.value, position: test.valuePosition ?? test.position, check: null})
    else {
      appendAll(steps, test.items)
      appendAll(
        steps,
        test.unread.map((unread) => ({text: unread.text, position: unread.position, check: null}))
      )
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
 * The field whose label matches `english` and that `fits`, else (for
 * labels in another language) the field at the place the template gives it.
 */
function findField(
  fields: readonly ContractField[],
  english: RegExp,
  atPlace: (field: ContractField, index: number) => boolean,
  fits: (field: ContractField) => boolean
): ContractField | undefined {
  const unknown = fields.filter((field) => field.key === null || field.key === 'acceptanceCriteria' || field.key === 'steps')
  return (
    unknown.find((field) => english.test(field.label) && fits(field)) ?? fields.filter((field, index) => field.key === null && atPlace(field, index)).at(-1)
  )
}
