/**
 * BMAD (v6): a story file of `_bmad-output/implementation-artifacts/`
 * (`# Story 1.2: Title`) read as a contract: the items of its
 * `## Acceptance Criteria` its criteria, the unticked boxes of its
 * `## Tasks / Subtasks` and its unresolved review findings its open tasks.
 */
import type {Heading, List, Nodes, Paragraph, Root, RootContent} from 'mdast'
import type {Position} from 'unist'
import {collapse, inlineText, lastLineOf, splitCheck} from '@verification-tiers/contracts'
import type {ContractItem, HeadingShape, Tier} from '@verification-tiers/contracts'
import {readFrozenIntent} from './frozen-intent.js'
import {hiddenUnitHeadings} from './hidden.js'
import {parseMarkdownText} from './markdown.js'
import type {FileContract, FileProblem} from './types.js'
import {unitContract} from './unit-contract.js'

/** A story file read: its contract (`null` when the file is no story), its status as written, and what could not be read. */
export interface BmadStory {
  story: FileContract | null
  /** The `Status:` line's value as written (`ready-for-dev`, `review`, `done`), `null` when none: what the workflow says, never evidence. */
  status: string | null
  /** Lines of the sections whose unticked boxes are tasks: `## Tasks / Subtasks` (with its review findings), `## Review Follow-ups`. */
  taskLines: Array<[number, number]>
  problems: FileProblem[]
  /** The file's tree, for a caller that reads more of it (its task boxes) without parsing it again. */
  tree: Root
}

// `# Story 1.2: Title`, `# Story 3.1a - Title`, `# Story Supp-1: Title`: a number (a token with a digit), a colon or dash, the title.
const storyHeading = /^Story\s+([^\s:]*\d[^\s:]*?)\s*[:\-—–]\s*(.*)$|^Story\s+([^\s:]*\d\S*)$/i
const criteriaTitle = /^Acceptance Criteria\b/i
const tasksTitle = /^(?:Tasks\b|Review Follow-?ups?\b|Review Findings\b)/i

/** Whether `text` is a story file: its first heading (after frontmatter) is `# Story …`. */
export function isBmadStory(text: string): boolean {
  return bmadStoryNumber(text) !== null
}

/** The number a story file's `# Story 1.2: Title` heading gives (`1.2`), `null` when its first heading is no story heading. */
export function bmadStoryNumber(text: string): string | null {
  const body = text.replace(/^\uFEFF/, '').replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '')
  const first = /^#[ \t]+(.+)$/m.exec(body)
  const heading = first && body.slice(0, first.index).trim() === '' ? storyHeading.exec(first[1].trim()) : null
  return heading ? (heading[1] ?? heading[3] ?? null) : null
}

/** Whether a file's name is a story's as BMAD names them: `1-2-slug.md` (v6, its sprint key), `1.2.slug.story.md` (v4). */
export function isBmadStoryName(name: string): boolean {
  return /^\d+-\d+[a-z]?-|^\d+\.\d+[a-z]?\./i.test(name)
}

/**
 * Whether a story file is a story's companion rather than a story: it
 * names no part of the story template anywhere (acceptance criteria,
 * tasks, dev notes, the dev agent record), as a spike's decision document
 * headed `# Story 3.1: … — Decision Document` does. The reader skips one
 * only beside the story of its number.
 */
export function isBmadCompanion(text: string): boolean {
  return !/acceptance criteria|\btasks\b|dev notes|dev agent record/i.test(text)
}

/**
 * The `# Story` headings markup hid in a file that is no story by its
 * first heading (in a quote or a list, after HTML on its line), each a
 * problem at its line: the story would be missing.
 */
export function hiddenStoryHeadings(file: string, text: string): FileProblem[] {
  return /#[ \t]*Story[ \t]+\S/i.test(text) ? hiddenUnitHeadings(file, text, parseMarkdownText(text), storyHeadingShape, 'story') : []
}

/**
 * A story file as one contract: its `# Story` heading the label, each
 * acceptance criterion one criterion however many Given/When/Then lines it
 * holds (a `### AC…` heading, else a numbered or bulleted item at the
 * section's top, else a paragraph opening with `**AC` or `Given`). A story
 * without criteria is a problem at its heading.
 */
export function readBmadStory(file: string, text: string, options: {slice: string; defaultTier: Tier}): BmadStory {
  const tree = parseMarkdownText(text)
  const nodes = tree.children
  const titles = nodes.filter((node): node is Heading => node.type === 'heading' && node.depth === 1)
  const title = titles.find((node) => storyHeading.test(textOf(node))) ?? titles[0]
  const status = /^[ \t]*(?:\*\*)?Status:?(?:\*\*)?:?[ \t]*(?:\*\*)?([^*\n]+?)(?:\*\*)?[ \t]*$/im.exec(text)?.[1]?.trim() ?? null
  const sections = sectionsOf(nodes)
  const taskLines = sections.filter((section) => tasksTitle.test(section.title)).map((section) => section.lines)
  // A `# Story` or `## Acceptance Criteria` heading markup hid (in a list or a quote, after HTML): its story or its criteria would be missing.
  const hidden = /story|acceptance/i.test(text)
    ? [
        ...hiddenUnitHeadings(file, text, tree, storyHeadingShape, 'story'),
        ...hiddenUnitHeadings(file, text, tree, criteriaHeadingShape, 'acceptance criteria')
      ]
    : []
  if (!title?.position) return {story: null, status, taskLines, problems: hidden, tree}
  const lines = text.split(/\r?\n|\r/)
  const criteriaSections = sections.filter((section) => criteriaTitle.test(section.title))
  const criteria = criteriaSections.flatMap((section) => criteriaOf(section.nodes, lines))
  // The approval covers the whole section, whatever of it the criteria hold (a table, a note after them).
  const end = criteriaSections.flatMap((section) => section.nodes).at(-1)?.position?.end
  const label = collapse(inlineText(title.children as Nodes[]))
  const problems: FileProblem[] =
    criteria.length === 0
      ? [
          {
            file,
            line: title.position.start.line,
            message: 'Unexpected story without acceptance criteria, expected `## Acceptance Criteria` with numbered Given/When/Then items'
          }
        ]
      : []
  for (const problem of hidden) problems.push(problem)
  const story = unitContract({
    label,
    file,
    text,
    slice: options.slice,
    headingPosition: title.position,
    criteria,
    steps: [],
    tier: options.defaultTier,
    ...(end ? {end} : {})
  })
  // The status is the workflow's word, which its own steps move (review to done): what an approval covers leaves it out, line for line.
  story.source = story.source
    .replace(/^([ \t]*(?:\*\*)?Status:?(?:\*\*)?:?)[ \t]*\S.*$/im, '$1')
    .replace(/^(#{2,3}[ \t]+Status[ \t]*\r?\n(?:[ \t]*\r?\n)*)[^\r\n#].*$/im, '$1')
  return {story, status, taskLines, problems, tree}
}

// A Build or quick-dev spec (`spec-<slug>.md`, `tech-spec-<slug>.md`): frontmatter with its `title` and `status`.
const specName = /^(?:tech-)?spec-[^/\\]+\.md$/
const specFront = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** Whether a file of the folder is a spec: its name, and frontmatter giving a `title` and a `status`. */
export function isBmadSpec(name: string, text: string): boolean {
  const front = specName.test(name) ? specFront.exec(text) : null
  return front !== null && /^title:/m.test(front[1]) && /^status:/m.test(front[1])
}

/**
 * A spec as one contract, `Spec: <title>`: the items after its
 * `**Acceptance Criteria:**` label (or under an `Acceptance Criteria`
 * heading, where a `- [ ] AC 1: …` box is a criterion, not a task) its
 * criteria; its `**Execution:**` items and `## Review Findings` its tasks.
 * A one-shot spec has no criteria, and that is no problem: it asks the
 * person only whether the change is what they meant. Its
 * `<frozen-after-approval>` block, the intent only the person may change,
 * is the contract's `intent`.
 */
export function readBmadSpec(file: string, text: string, options: {slice: string; defaultTier: Tier}): BmadStory {
  const front = specFront.exec(text)?.[1] ?? ''
  const title = (/^title:[ \t]*(.*)$/m.exec(front)?.[1] ?? '').trim().replace(/^(['"])(.*)\1$/, '$2')
  const status = (/^status:[ \t]*(.*)$/m.exec(front)?.[1] ?? '').trim().replace(/^(['"])(.*)\1$/, '$2') || null
  const tree = parseMarkdownText(text)
  const nodes = tree.children
  const frozen = readFrozenIntent(file, text, tree)
  const criteria: ContractItem[] = []
  const taskLines: Array<[number, number]> = [
    ...sectionsOf(nodes)
      .filter((section) => tasksTitle.test(section.title))
      .map((section) => section.lines),
    ...subsectionLines(nodes, /^Tasks\b/i)
  ]
  let heading: number | null = null
  for (const [index, node] of nodes.entries()) {
    if (node.type === 'heading') heading = criteriaTitle.test(textOf(node)) ? node.depth : heading !== null && node.depth > heading ? heading : null
    const label = node.type === 'paragraph' ? textOf(node) : ''
    const list = nodes[index + 1]
    if (/^Execution:?$/i.test(label) && list?.type === 'list' && list.position) taskLines.push([list.position.start.line, lastLineOf(list.position)])
    const listed = (/^Acceptance Criteria:?$/i.test(label) && list?.type === 'list' ? list : null) ?? (heading !== null && node.type === 'list' ? node : null)
    for (const entry of listed?.children ?? [])
      for (const each of item(textOf(entry.children[0] ?? entry).replace(/^\[[ xX]\]\s*/, ''), entry.position)) criteria.push(each)
  }
  const label = `Spec: ${title || options.slice}`
  const headingPosition: Position = {start: {line: 1, column: 1, offset: 0}, end: {line: 1, column: 4, offset: 3}}
  const story = unitContract({label, file, text, slice: options.slice, headingPosition, criteria, steps: [], tier: options.defaultTier, intent: frozen.intent})
  return {story, status, taskLines, problems: frozen.problems, tree}
}

/** The lines of each `###` (or deeper) section whose title matches `title`, to the next heading of its level or above: a tech-spec's `### Tasks` under `## Implementation Plan`. */
function subsectionLines(nodes: readonly RootContent[], title: RegExp): Array<[number, number]> {
  const found: Array<[number, number]> = []
  let open: {depth: number; lines: [number, number]} | null = null
  for (const node of nodes) {
    if (node.type === 'heading' && open && node.depth <= open.depth) open = null
    if (node.type === 'heading' && node.depth > 2 && title.test(textOf(node)) && node.position) {
      open = {depth: node.depth, lines: [node.position.start.line, lastLineOf(node.position)]}
      found.push(open.lines)
    } else if (open && node.position) open.lines[1] = lastLineOf(node.position)
  }
  return found
}

interface Section {
  title: string
  nodes: RootContent[]
  lines: [number, number]
}

/** The `##` sections of a document, each with its nodes (its `###` subsections included) and its lines. */
function sectionsOf(nodes: readonly RootContent[]): Section[] {
  const sections: Section[] = []
  for (const node of nodes) {
    if (node.type === 'heading' && node.depth <= 2) {
      const line = node.position?.start.line ?? 0
      sections.push({title: collapse(inlineText(node.children as Nodes[])), nodes: [], lines: [line, line]})
      continue
    }
    const section = sections.at(-1)
    if (!section) continue
    section.nodes.push(node)
    section.lines[1] = node.position?.end.line ?? section.lines[1]
  }
  return sections
}

/**
 * The criteria of an Acceptance Criteria section: its `### AC1` headings;
 * else its `**AC1 — Title**` paragraphs, each with the Given/When/Then
 * paragraphs and lists after it; else its numbered items at the
 * section's top; else its `Given` paragraphs, each with the paragraphs and
 * lists after it (a Then that ends in a list of fields is one criterion);
 * else the items of its lists.
 */
function criteriaOf(nodes: readonly RootContent[], lines: readonly string[]): ContractItem[] {
  const isAcHeading = (node: RootContent) => node.type === 'heading' && acTitle.test(textOf(node))
  if (nodes.some(isAcHeading)) return grouped(nodes, isAcHeading)
  const opens = (pattern: RegExp) => (node: RootContent) => node.type === 'paragraph' && pattern.test(textOf(node))
  const acParagraph = opens(acTitle)
  if (nodes.some(acParagraph)) return grouped(nodes, acParagraph)
  const given = opens(/^Given\b/i)
  const lists = nodes.filter((node): node is List => node.type === 'list')
  // Given paragraphs before any numbered list are the criteria: a numbered list after one is part of its Then (`Then it shows:` and the fields).
  const firstGiven = nodes.findIndex(given)
  const firstNumbered = nodes.findIndex((node) => node.type === 'list' && node.ordered)
  if (firstGiven !== -1 && (firstNumbered === -1 || firstGiven < firstNumbered)) return grouped(nodes, given)
  const itemsOf = (each: List[]) => each.flatMap((list) => list.children.flatMap((entry) => item(textOf(entry.children[0] ?? entry), entry.position)))
  // Numbered items are the criteria; bullets beside them (an out-of-scope list) are not. A numbered line markdown joined to the paragraph above (`6.` cannot open a list there) is one too.
  const numbered = [...itemsOf(lists.filter((list) => list.ordered)), ...nodes.flatMap((node) => (node.type === 'paragraph' ? joinedItems(node, lines) : []))]
  if (numbered.length > 0) return numbered.sort((a, b) => a.position.start.line - b.position.start.line)
  return itemsOf(lists)
}

/**
 * One criterion per block that `opens` one (an `### AC1` heading, an
 * `**AC1 — Title**` or `Given` paragraph), with the paragraphs and lists
 * after it up to the next, their text joined to its own (a list's items
 * with `;`), so the person sees and the approval pins all of it; an item
 * of such a list that opens one itself (`- Given …`) is a criterion of its
 * own. What comes before the first is an introduction.
 */
function grouped(nodes: readonly RootContent[], opens: (node: RootContent) => boolean): ContractItem[] {
  const found: ContractItem[] = []
  const extend = (text: string, end: Position['end']) => {
    const last = found.at(-1)
    if (!last) return
    if (text !== '') last.text = `${last.text} ${text}`
    last.position = {start: last.position.start, end}
  }
  for (const node of nodes) {
    if (!node.position) continue
    if (opens(node)) {
      for (const each of item(textOf(node), node.position)) found.push(each)
    } else if (node.type === 'list') {
      const rest: string[] = []
      for (const entry of node.children) {
        const first = entry.children[0]
        if (first && entry.position && opens(first)) {
          if (rest.length > 0) extend(rest.splice(0).join('; '), entry.position.start)
          for (const each of item(textOf(first), entry.position)) found.push(each)
        } else rest.push(textOf(entry.children[0] ?? entry))
      }
      extend(rest.filter((text) => text !== '').join('; '), node.position.end)
    } else {
      extend(node.type === 'paragraph' ? textOf(node) : '', node.position.end)
    }
  }
  return found
}

const acTitle = /^AC[\s\-_]*\d/i

// `6. **AC6:** text`, a numbered line inside a paragraph.
const joinedItem = /^([ \t]{0,3})\d{1,9}[.)][ \t]+(\S.*)$/

/**
 * The numbered lines of a paragraph after its first (`**Quality:**` then
 * `10. …`), each an item: markdown reads them as the paragraph's text, as
 * a list numbered from other than 1 cannot interrupt a paragraph, while a
 * person reads a numbered list.
 */
function joinedItems(node: Paragraph, lines: readonly string[]): ContractItem[] {
  const {position} = node
  if (!position) return []
  const found: ContractItem[] = []
  for (let line = position.start.line + 1; line <= position.end.line; line++) {
    const match = joinedItem.exec(lines[line - 1] ?? '')
    if (!match) continue
    const value = match[0]
    const place: Position = {start: {line, column: match[1].length + 1}, end: {line, column: value.length + 1}}
    for (const each of item(textOf(parseMarkdownText(match[2]).children[0] ?? {type: 'text', value: ''}), place)) found.push(each)
  }
  return found
}

/** What reads as a story's heading, or its acceptance criteria's, to the eye, where markdown made no heading. */
const storyHeadingShape: HeadingShape = {hint: (line) => /story/i.test(line), subject: (text) => storyHeading.test(text.trim())}
const criteriaHeadingShape: HeadingShape = {hint: (line) => /acceptance/i.test(line), subject: (text) => criteriaTitle.test(text.trim())}

function textOf(node: Nodes): string {
  return collapse(inlineText('children' in node ? (node.children as Nodes[]) : []).replace(/\*\*|__/g, ''))
}

function item(text: string, position: Position | undefined): ContractItem[] {
  return position && text !== '' ? [{...splitCheck(text), position}] : []
}
