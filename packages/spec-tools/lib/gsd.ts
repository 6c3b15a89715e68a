/**
 * GSD (get-shit-done): the files of a phase under `.planning/` read as
 * contracts. The roadmap's `**Success Criteria**` of a phase, each plan's
 * `must_haves.truths`, and the `human_verification` entries of its
 * `NN-VERIFICATION.md`, each at its line.
 */
import type {Point, Position} from 'unist'
import type {Document, Pair, Node as YamlNode} from 'yaml'
import {location} from 'vfile-location'
import {collapse, inlineText, splitCheck, yaml} from '@verification-tiers/contracts'
import type {ContractItem, HeadingShape} from '@verification-tiers/contracts'
import type {Nodes} from 'mdast'
import {hiddenUnitHeadings} from './hidden.js'
import {inFencedExample, parseMarkdownText} from './markdown.js'
import type {FileProblem} from './types.js'
import {unitContract} from './unit-contract.js'
import type {UnitContractParts} from './unit-contract.js'

/**
 * A phase's number as GSD compares them, from a folder name (`02.1-hotfix`,
 * `CK-03-sync`, `12A-ui`) or a roadmap heading's (`2.1`, `CK-03`): a
 * project code prefix dropped, the integer without its leading zeros, a
 * letter and decimals kept. `null` when the name starts with no number.
 */
export function gsdPhaseNumber(name: string): string | null {
  const match = /^(?:[A-Z]{1,6}-)?0*(\d+)([A-Za-z]?(?:\.\d+)*)(?=-|$)/.exec(name)
  return match ? `${match[1]}${match[2]}` : null
}

/** A phase's entry in `ROADMAP.md`: its heading and its success criteria. */
export interface GsdRoadmapPhase {
  /** As `gsdPhaseNumber` gives it. */
  number: string
  /** The heading's text: `Phase 2: Sign in`. */
  title: string
  headingPosition: Position
  criteria: ContractItem[]
}

// `### Phase 2: Name`, `#### Phase 2.1: Name (INSERTED)`, `### Phase CK-03: Name`, indented up to three spaces as markdown allows.
const phaseHeading = /^ {0,3}(#{2,4})[ \t]+(Phase[ \t]+((?:[A-Z]{1,6}-)?\d+[A-Za-z]?(?:\.\d+)*)[ \t]*:?[ \t]*(.*?))[ \t]*#*[ \t]*$/
const anyHeading = /^#{1,4}[ \t]/
const criteriaLabel = /^\s*\*\*Success Criteria\b[^*]*\*\*/i
const numberedItem = /^([ \t]*)\d{1,9}[.)][ \t]+(\S.*)$/

/** A phase heading's subject, as the hidden-heading detector looks for one: `Phase 2:`, `Phase CK-03:`. */
const phaseHeadingShape: HeadingShape = {
  hint: (line) => /phase/i.test(line),
  subject: (text) => /^Phase[ \t]+(?:[A-Z]{1,6}-)?\d/.test(text.trim())
}

/** What `ROADMAP.md` details: its phases by number, and the phase headings it could not read. */
export interface GsdRoadmap {
  phases: Map<string, GsdRoadmapPhase>
  problems: FileProblem[]
}

/**
 * The phases `ROADMAP.md` details, each with the numbered items after its
 * `**Success Criteria**` label (wrapped lines joined), read by line as GSD
 * reads them: a heading in a `<details>` block counts. A phase detailed
 * twice (a shipped milestone kept above the active one) is the last entry
 * that lists criteria (a later one with a status line only adds none). A
 * phase heading not read (in a quote or a list, behind HTML on its line, in
 * an unclosed fence) is a problem at its line: its criteria would be
 * missing from its phase.
 */
export function readGsdRoadmap(file: string, text: string): GsdRoadmap {
  const tree = parseMarkdownText(text)
  const phases = readPhases(text, inFencedExample(tree.children, {everyCode: true}))
  const read = new Set([...phases.values()].map((phase) => phase.headingPosition.start.line))
  const candidates = /phase/i.test(text) ? hiddenUnitHeadings(file, text, tree, phaseHeadingShape, 'phase') : []
  return {phases, problems: candidates.filter((problem) => problem.line === null || !read.has(problem.line))}
}

/** The phases of a roadmap, read by line; a line in code (a fenced example, as markdown reads it) is none. */
function readPhases(text: string, inCode: (line: number) => boolean): Map<string, GsdRoadmapPhase> {
  const place = location(text)
  const entries: GsdRoadmapPhase[] = []
  let phase: GsdRoadmapPhase | null = null
  let inCriteria = false
  let last: ContractItem | null = null
  for (const [index, {line, start}] of lineStarts(text).entries()) {
    if (inCode(index + 1)) continue
    const heading = phaseHeading.exec(line)
    if (heading || anyHeading.test(line)) {
      inCriteria = false
      last = null
      phase = null
      if (heading) {
        const number = gsdPhaseNumber(heading[3])
        if (number === null) continue
        phase = {number, title: collapse(heading[2]), headingPosition: span(place, start, start + line.length), criteria: []}
        entries.push(phase)
      }
      continue
    }
    if (phase === null) continue
    if (criteriaLabel.test(line)) {
      inCriteria = true
      last = null
      continue
    }
    if (!inCriteria) continue
    const item = numberedItem.exec(line)
    if (item) {
      const from = start + line.indexOf(item[2])
      last = {...splitCheck(collapse(item[2])), position: span(place, from, start + line.trimEnd().length)}
      phase.criteria.push(last)
    } else if (line.trim() === '') {
      last = null
    } else if (last !== null && /^[ \t]+\S/.test(line) && !/^\s*[-*+][ \t]/.test(line)) {
      // A wrapped criterion continues on an indented line.
      last.text = `${last.text} ${collapse(line)}`
      last.position = {start: last.position.start, end: place.toPoint(start + line.trimEnd().length) ?? last.position.end}
    } else if (!/^[ \t]/.test(line)) {
      // The next field (`**Plans**:`) or paragraph ends the list.
      inCriteria = false
      last = null
    }
  }
  // A phase detailed twice is its last entry with criteria: a later one that only says where the phase stands adds none.
  const phases = new Map<string, GsdRoadmapPhase>()
  for (const entry of entries) if (entry.criteria.length > 0 || !phases.has(entry.number)) phases.set(entry.number, entry)
  return phases
}

/** What a plan (`NN-MM-PLAN.md`) asks: its must-have truths, and the checks it plans for a person. */
export interface GsdPlan {
  truths: ContractItem[]
  /** Where its `truths:` key is, the place of the truths as a whole; `null` when it has none. */
  truthsPosition: Position | null
  /** `checkpoint:human-verify` tasks (by their `<name>`) and `<human-check>` blocks (their test and expected result). */
  humanChecks: ContractItem[]
  problems: FileProblem[]
}

/** A plan's frontmatter truths and its planned human checks. */
export function readGsdPlan(file: string, text: string): GsdPlan {
  const place = location(text)
  // GSD reads its plans' frontmatter leniently: YAML GSD wrote wrong elsewhere (an artifact's pattern) leaves the truths readable.
  const front = readFront(file, text, [['must_haves', 'truths']])
  const truths: ContractItem[] = []
  const problems = [...front.problems]
  const list = front.doc?.getIn(['must_haves', 'truths'], true) as YamlNode | undefined
  const notList = notAList(file, place, front, list, 'truths', '`must_haves: truths:` items such as `- "A user can sign in"`')
  if (notList) problems.push(notList)
  for (const node of sequence(list)) {
    const written = scalarText(node) ?? scalarText(mapValue(node, 'truth')) ?? scalarText(mapValue(node, 'text')) ?? mapText(node)
    const position = nodePosition(place, front.base, node)
    if (written === null || position === null) {
      problems.push({
        file,
        line: position?.start.line ?? null,
        message: 'Unexpected must-have truth that is not text, expected `must_haves: truths:` items such as `- "A user can sign in"`'
      })
      continue
    }
    truths.push({...splitCheck(collapse(written)), position})
  }
  const humanChecks: ContractItem[] = []
  for (const match of text.matchAll(/<task\b[^>]*\btype=["']checkpoint:human-verify["'][^>]*>([\s\S]*?)<\/task>/g)) {
    const name = /<name>([\s\S]*?)<\/name>/.exec(match[1])
    const at = match.index
    humanChecks.push({text: collapse(name ? name[1] : 'Human verification task'), position: span(place, at, at + match[0].length), check: null})
  }
  for (const match of text.matchAll(/<human-check>([\s\S]*?)<\/human-check>/g)) {
    const test = /<test>([\s\S]*?)<\/test>/.exec(match[1])
    const expected = /<expected>([\s\S]*?)<\/expected>/.exec(match[1])
    const at = match.index
    humanChecks.push({text: checkText(test?.[1] ?? match[1], expected?.[1] ?? null), position: span(place, at, at + match[0].length), check: null})
  }
  humanChecks.sort((a, b) => a.position.start.line - b.position.start.line)
  return {truths, truthsPosition: keyPosition(place, front, ['must_haves', 'truths']), humanChecks, problems}
}

/**
 * The checks a phase's `NN-VALIDATION.md` plans for a person: each row of
 * the table under its `## Manual-Only Verifications` heading, as the
 * behaviour and its test instructions, at its line. The template's own
 * placeholder row (`{behavior}`) is none.
 */
export function readGsdValidation(text: string): ContractItem[] {
  const tree = parseMarkdownText(text)
  const checks: ContractItem[] = []
  let inSection = false
  for (const node of tree.children) {
    if (node.type === 'heading') inSection = /^Manual[- ]Only Verifications?\b/i.test(collapse(inlineText(node.children as Nodes[])))
    if (!inSection || node.type !== 'table') continue
    const [head, ...rows] = node.children
    const names = (head?.children ?? []).map((cell) => collapse(inlineText(cell.children as Nodes[])).toLowerCase())
    const behaviour = Math.max(
      0,
      names.findIndex((name) => name.startsWith('behavio'))
    )
    const steps = names.findIndex((name) => name.includes('instruction') || name === 'test' || name === 'steps')
    for (const row of rows) {
      const cells = row.children.map((cell) => collapse(inlineText(cell.children as Nodes[])))
      const blank = (cell: string) => /^(?:\{.*\}|n\/?a|[-—–]*)$/i.test(cell)
      const what = cells[behaviour] ?? ''
      const how = steps < 0 ? '' : (cells[steps] ?? '')
      // The template's placeholder row (`{behavior}`), a row saying there is none (`(none)`), and a row with neither behaviour nor instructions are no check; a row with test instructions alone is one.
      if (/^\(?none\)?$/i.test(what) || (blank(what) && blank(how)) || !row.position) continue
      const text = blank(what) ? how : blank(how) ? what : `${what} — ${how}`
      checks.push({text: collapse(text), position: row.position, check: null})
    }
  }
  return checks
}

/** What a phase's `NN-VERIFICATION.md` says. */
export interface GsdVerification {
  /** Its frontmatter `status` as written (`passed`, `gaps_found`, `human_needed`), `null` when none. */
  status: string | null
  statusLine: number | null
  /** The checks it leaves to a person: its `human_verification` entries, or its body's list when that lists more. */
  humanChecks: ContractItem[]
  /** Where the checks were read: `frontmatter` or `body` (`## Human Verification Required`). */
  checksFrom: 'frontmatter' | 'body'
  /** The place of the checks as a whole: the `human_verification:` key, or the body's first check; `null` when none is listed. */
  checksPosition: Position | null
  /** The `gaps` entries' truths: what the verifier found not done. */
  gaps: ContractItem[]
  /** The `overrides` entries' must-haves: what was accepted as passed though not verified. */
  overrides: ContractItem[]
  problems: FileProblem[]
}

/** A VERIFICATION file's status, human checks, gaps and overrides. */
export function readGsdVerification(file: string, text: string): GsdVerification {
  const place = location(text)
  const front = readFront(file, text, [['status'], ['human_verification'], ['gaps'], ['overrides']])
  const status = front.doc?.get('status', true) as YamlNode | undefined
  const problems = [...front.problems]
  const entries = (key: string, field: string, item: (node: YamlNode) => string | null): ContractItem[] => {
    const list = front.doc?.get(key, true) as YamlNode | undefined
    const notList = notAList(file, place, front, list, key, `its entries as a list (\`- ${field}: …\`)`)
    if (notList) problems.push(notList)
    return sequence(list).flatMap((node) => {
      const written = item(node) ?? scalarText(mapValue(node, field)) ?? scalarText(node) ?? mapText(node)
      const position = nodePosition(place, front.base, node)
      return written === null || position === null ? [] : [{text: collapse(written), position, check: null}]
    })
  }
  const fromFront = entries('human_verification', 'test', (node) => {
    const test = scalarText(mapValue(node, 'test'))
    return test === null ? null : checkText(test, scalarText(mapValue(node, 'expected')))
  })
  const fromBody = bodyChecks(text, place)
  const body = fromBody.length > fromFront.length
  return {
    status: scalarText(status ?? null),
    statusLine: nodePosition(place, front.base, status ?? null)?.start.line ?? null,
    humanChecks: body ? fromBody : fromFront,
    checksFrom: body ? 'body' : 'frontmatter',
    checksPosition: body ? (fromBody[0]?.position ?? null) : keyPosition(place, front, ['human_verification']),
    gaps: entries('gaps', 'truth', () => null),
    overrides: entries('overrides', 'must_have', () => null),
    problems
  }
}

/** An override that turned a person's check into a pass: its must-have names one. */
const personCheck = /\b(?:manual|human|UAT|by hand|visual(?:ly)?)\b/i

/**
 * What a VERIFICATION says against GSD's own rule, each at its line:
 * `status: passed` (or any word but `human_needed` and `gaps_found`) while
 * it lists a check for a person (GSD passes a phase
 * only when none is left), `status: human_needed` listing none, and an
 * override whose must-have is a manual or human check (an entry the agent
 * wrote, which answers for no one).
 */
export function verificationProblems(file: string, verification: GsdVerification): FileProblem[] {
  const problems: FileProblem[] = []
  const {status, statusLine, humanChecks} = verification
  const checks = humanChecks.length
  // GSD writes passed, gaps_found or human_needed; any other word over a listed check (`verified`, `approved`) claims what `passed` does.
  if (status !== null && status !== 'human_needed' && status !== 'gaps_found' && checks > 0) {
    const where = verification.checksFrom === 'body' ? 'under Human Verification Required' : 'in human_verification'
    problems.push({
      file,
      line: statusLine,
      message: `Unexpected \`status: ${status}\` with ${checks} human check${checks === 1 ? '' : 's'} listed ${where}, expected \`status: human_needed\`: a phase passes only when no check is left to a person`
    })
  }
  if (status === 'human_needed' && checks === 0) {
    problems.push({
      file,
      line: statusLine,
      message: 'Unexpected `status: human_needed` without a human check, expected `human_verification` entries with test, expected and why_human'
    })
  }
  for (const override of verification.overrides) {
    if (!personCheck.test(override.text)) continue
    problems.push({
      file,
      line: override.position.start.line,
      message: `Unexpected override of a person's check (${JSON.stringify(override.text)}), expected the check asked of a person: an override the agent writes answers for no one`
    })
  }
  return problems
}

/** One test of a UAT file (`### N. Name` with its `result:`). */
export interface GsdUatTest {
  /** The heading's text after its number. */
  name: string
  /** Its `result:` lowercased, brackets and quotes dropped (`[pending]` is `pending`); `null` when it has none. */
  result: string | null
  line: number
}

/** What a phase's `NN-UAT.md` or `NN-HUMAN-UAT.md` records: the workflow's transcript of a person's answers, never an answer to the gate. */
export interface GsdUat {
  /** Its frontmatter `status` as written (`testing`, `partial`, `complete`, `diagnosed`, or a hand-written file's own), `null` when none or unreadable. */
  status: string | null
  statusLine: number | null
  /** Its `### N. Name` tests, each with its `result:` (a blank line may separate them); none for a file in another shape (results in a table). */
  tests: GsdUatTest[]
}

const uatTest = /^ {0,3}#{3}[ \t]+\d{1,9}[.)][ \t]+(\S.*?)[ \t]*#*[ \t]*$/
const uatResult = /^result:[ \t]*(.*?)[ \t]*$/

/**
 * A UAT file's status and tests, read by line as GSD's `uat.cjs` reads them
 * (a test is a `### N. Name` heading, its result the first `result:` line
 * before the next heading), outside fenced code. Never a problem: a file in
 * another shape, or with frontmatter that is not YAML, is a record whose
 * tests or status could not be read.
 */
export function readGsdUat(file: string, text: string): GsdUat {
  const place = location(text)
  const front = readFront(file, text)
  const status = front.doc?.get('status', true) as YamlNode | undefined
  const tests: GsdUatTest[] = []
  let test: GsdUatTest | null = null
  // Code as markdown reads it: a `~~~` fence holding a ``` line stays one block.
  const inCode = inFencedExample(parseMarkdownText(text).children, {everyCode: true})
  for (const [index, {line}] of lineStarts(text).entries()) {
    if (inCode(index + 1)) continue
    const heading = uatTest.exec(line)
    if (heading || anyHeading.test(line)) {
      test = heading ? {name: collapse(heading[1]), result: null, line: index + 1} : null
      if (test) tests.push(test)
      continue
    }
    const result = test?.result === null ? uatResult.exec(line) : null
    if (test && result) test.result = collapse(result[1].replace(/^\[(.*)\]$|^(["'])(.*)\2$/, '$1$3')).toLowerCase() || null
  }
  return {status: scalarText(status ?? null), statusLine: nodePosition(place, front.base, status ?? null)?.start.line ?? null, tests}
}

/** How a contract of a phase is made: its label, the file it is read from, what it holds. */
export type GsdContractParts = UnitContractParts

/** One contract of a phase: the roadmap entry, a plan, or the verification's human checks. */
export const gsdContract = unitContract

/** The position of a whole file's first line, for a contract read from its frontmatter. */
export function firstLine(text: string): Position {
  const end = text.search(/\r?\n|$/)
  return {start: {line: 1, column: 1, offset: 0}, end: {line: 1, column: end + 1, offset: end}}
}

/** A check for a person as one line: what to do, and what they should see. */
function checkText(test: string, expected: string | null): string {
  return expected === null || collapse(expected) === '' ? collapse(test) : `${collapse(test)} — expected: ${collapse(expected)}`
}

// `## Human Verification Required` (any level), then `### 1. Name` headings or `1. item` lines.
const humanSection = /^(#{2,4})[ \t]+Human Verification Required\b/i
const numberedHeading = /^#{2,6}[ \t]+\d{1,9}[.)][ \t]+(\S.*?)[ \t]*#*$/

/** The checks a VERIFICATION's body lists under `Human Verification Required`, each at its line. */
function bodyChecks(text: string, place: ReturnType<typeof location>): ContractItem[] {
  const items: ContractItem[] = []
  let depth = 0
  // Code as markdown reads it: a `~~~` fence holding a ``` line stays one block.
  const inCode = inFencedExample(parseMarkdownText(text).children, {everyCode: true})
  for (const [index, {line, start}] of lineStarts(text).entries()) {
    if (inCode(index + 1)) continue
    const heading = /^(#{1,6})[ \t]/.exec(line)
    const section = humanSection.exec(line)
    if (section) {
      depth = section[1].length
      continue
    }
    if (depth === 0) continue
    // GSD's verifier writes its items as `### 1. Name` under a `### Human Verification Required` of the same level.
    if (heading && heading[1].length <= depth && !(heading[1].length === depth && numberedHeading.test(line))) {
      depth = 0
      continue
    }
    const item = numberedHeading.exec(line) ?? (/^\d{1,9}[.)][ \t]+(\S.*)$/.exec(line) as RegExpExecArray | null)
    if (!item) continue
    const from = start + line.indexOf(item[1])
    items.push({text: collapse(item[1].replace(/\*\*|__/g, '')), position: span(place, from, start + line.trimEnd().length), check: null})
  }
  return items
}

interface Front {
  doc: Document | null
  /** Offset of the frontmatter's first line in the file. */
  base: number
  problems: FileProblem[]
}

/**
 * A file's YAML frontmatter (`---` … `---`), parsed; `null` when it has
 * none. A YAML error is a problem at its line, unless it lies in a value
 * the caller does not read: GSD reads its frontmatter leniently, so YAML it
 * wrote wrong elsewhere (an artifact's pattern, a re-verification block)
 * leaves the `needed` values (paths of keys) readable.
 */
function readFront(file: string, text: string, needed: ReadonlyArray<readonly string[]> = []): Front {
  const open = /^(?:\uFEFF)?---[ \t]*\r?\n/.exec(text)
  if (!open) return {doc: null, base: 0, problems: []}
  const base = open[0].length
  const close = /^---[ \t]*$/m.exec(text.slice(base))
  if (!close)
    return {doc: null, base, problems: [{file, line: 1, message: 'Unexpected frontmatter without its closing `---`, expected YAML between two `---` lines'}]}
  const {parseDocument} = yaml()
  const source = text.slice(base, base + close.index)
  const doc = parseDocument(source, {uniqueKeys: false})
  // A needed key written in the text but gone from what was parsed was swallowed by the error (an unclosed `[` above it): no leniency then.
  const swallowed =
    doc.errors.length > 0 && needed.some((keys) => doc.getIn(keys, true) === undefined && new RegExp(`^[ \\t]*${keys.at(-1)}[ \\t]*:`, 'm').test(source))
  const error = swallowed ? doc.errors[0] : doc.errors.find((each) => !aside(doc, each.pos[0], needed))
  if (error) {
    const line = location(text).toPoint(base + error.pos[0])?.line ?? 1
    return {
      doc: null,
      base,
      problems: [
        {
          file,
          line,
          message: `Unexpected frontmatter that is not YAML (${collapse(error.message.split('\n')[0] ?? '').replace(/:$/, '')}), expected the frontmatter GSD writes`
        }
      ]
    }
  }
  const unclear = unclearValue(doc, needed)
  if (unclear) {
    const line = location(text).toPoint(base + unclear.at)?.line ?? 1
    return {doc: null, base, problems: [{file, line, message: unclear.message}]}
  }
  return {doc, base, problems: []}
}

/** The pairs of a YAML mapping whose key is `key` (several where a key is given twice); none for anything but a mapping. */
function pairsNamed(node: unknown, key: string): Pair[] {
  const {isMap, isScalar} = yaml()
  return isMap(node) ? node.items.filter((pair) => isScalar(pair.key) && String(pair.key.value) === key) : []
}

/**
 * What makes a `needed` value unclear, with its offset, walking each path
 * once: a key on it given twice (YAML read leniently allows it), else an
 * alias (`*name`) or merge key (`<<:`), which GSD never writes and which,
 * read as nothing, would drop the truths or checks in silence; `null` when
 * nothing does.
 */
function unclearValue(doc: Document, needed: ReadonlyArray<readonly string[]>): {message: string; at: number} | null {
  const {isAlias} = yaml()
  let twice: {message: string; at: number} | null = null
  let indirect: {message: string; at: number} | null = null
  // `holder`: the key whose value holds `node`, `null` for the frontmatter's own mapping.
  const indirection = (node: YamlNode, holder: string | null) => ({
    message: `Unexpected ${isAlias(node) ? 'alias' : 'merge key'} in ${holder === null ? 'the frontmatter' : `\`${holder}\` of the frontmatter`}, expected its value written out: tiers reads no YAML alias or merge`,
    at: node.range?.[0] ?? 0
  })
  for (const keys of needed) {
    let node: unknown = doc.contents
    let holder: string | null = null
    for (const key of keys) {
      const [merge] = pairsNamed(node, '<<')
      if (merge) indirect ??= indirection(merge.key as YamlNode, holder)
      const pairs = pairsNamed(node, key)
      if (pairs.length > 1) {
        const message = `Unexpected \`${key}\` given twice in the frontmatter, expected it once: which of the two is meant cannot be told`
        twice ??= {message, at: (pairs[1].key as YamlNode).range?.[0] ?? 0}
      }
      node = pairs[0]?.value
      if (isAlias(node)) indirect ??= indirection(node as YamlNode, key)
      holder = key
    }
  }
  return twice ?? indirect
}

/** Whether offset `at` lies in a value no `needed` path reads: inside a pair whose key is on none of them, below the keys that are. */
function aside(doc: Document, at: number, needed: ReadonlyArray<readonly string[]>): boolean {
  const {isMap, isScalar} = yaml()
  let node: unknown = doc.contents
  let paths = needed
  for (;;) {
    if (!isMap(node)) return false
    const pair = node.items.find((each) => {
      const start = (each.key as YamlNode | null)?.range?.[0]
      const end = (each.value as YamlNode | null)?.range?.[2] ?? (each.key as YamlNode | null)?.range?.[2]
      return start !== undefined && end !== undefined && start <= at && at < end
    })
    if (!pair || !isScalar(pair.key)) return false
    const key = String(pair.key.value)
    const onPath = paths.filter((path) => path[0] === key)
    if (onPath.length === 0) return true
    if (onPath.some((path) => path.length === 1)) return false
    paths = onPath.map((path) => path.slice(1))
    node = pair.value
  }
}

/** A value the gate reads as a list that is something else (a text, a mapping), which would read as no item: a problem at it. Empty is no list and no problem. */
function notAList(
  file: string,
  place: ReturnType<typeof location>,
  front: Front,
  node: YamlNode | undefined,
  key: string,
  expected: string
): FileProblem | null {
  const {isScalar, isSeq} = yaml()
  if (node === undefined || node === null || isSeq(node) || (isScalar(node) && (node.value === null || node.value === ''))) return null
  return {
    file,
    line: nodePosition(place, front.base, node)?.start.line ?? null,
    message: `Unexpected \`${key}\` that is no list, expected ${expected}: what it holds is not read`
  }
}

/** The items of a YAML sequence node, none for anything else. */
function sequence(node: YamlNode | undefined | null): YamlNode[] {
  const {isSeq} = yaml()
  return isSeq(node) ? (node.items as YamlNode[]) : []
}

/** A mapping node's value at `key`. */
function mapValue(node: YamlNode | null | undefined, key: string): YamlNode | null {
  const {isMap} = yaml()
  return isMap(node) ? ((node.get(key, true) as YamlNode | undefined) ?? null) : null
}

/**
 * A mapping's text values as one line, `key: value` each: what a person
 * wrote as a sentence that YAML read as a mapping (`- Users can: sign in`),
 * or an entry without the key GSD names. `null` when it holds no text.
 */
function mapText(node: YamlNode | null | undefined): string | null {
  const {isMap, isScalar} = yaml()
  if (!isMap(node)) return null
  const parts = node.items.flatMap((pair) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : ''
    const value = scalarText(pair.value as YamlNode | null)
    return value === null ? [] : [`${key}: ${value}`]
  })
  return parts.length === 0 ? null : parts.join('; ')
}

/** A scalar node's text (numbers and booleans as written), `null` for anything else or an empty value. */
function scalarText(node: YamlNode | null | undefined): string | null {
  const {isScalar} = yaml()
  if (!isScalar(node) || node.value === null || node.value === undefined) return null
  const written = collapse(String(node.value))
  return written === '' ? null : written
}

/** Where a YAML node is in the file. */
/** Where the key at the end of `keys` is written in a frontmatter, `null` when it is not. */
function keyPosition(place: ReturnType<typeof location>, front: Front, keys: readonly string[]): Position | null {
  let node: unknown = front.doc?.contents
  let key: YamlNode | null = null
  for (const name of keys) {
    const [pair] = pairsNamed(node, name)
    if (!pair) return null
    key = pair.key as YamlNode
    node = pair.value
  }
  return nodePosition(place, front.base, key)
}

function nodePosition(place: ReturnType<typeof location>, base: number, node: YamlNode | null): Position | null {
  const range = node?.range
  if (!range) return null
  const start = place.toPoint(base + range[0])
  const end = place.toPoint(base + range[1])
  return start && end ? {start, end} : null
}

function span(place: ReturnType<typeof location>, from: number, to: number): Position {
  const start = place.toPoint(from) as Point
  return {start, end: place.toPoint(to) ?? start}
}

/** Each line of `text` with its offset. */
function lineStarts(text: string): Array<{line: string; start: number}> {
  const lines: Array<{line: string; start: number}> = []
  let start = 0
  for (const line of text.split('\n')) {
    lines.push({line: line.replace(/\r$/, ''), start})
    start += line.length + 1
  }
  return lines
}
