import type {Yaml} from 'mdast'
import type {Point, Position} from 'unist'
import {createRequire} from 'node:module'
import type {Node as YamlNode, Pair} from 'yaml'
import {splitCheck} from './criterion.js'
import {isCorrectLabel, isListField, labelledField, resolveFieldKey} from './fields.js'
import {normalizeContractId} from './heading.js'
import type {Locator} from './locate.js'
import {checkTimeoutRule, isCheckTimeout} from './timeout.js'
import type {ContractField, ContractItem, ContractProblem, CriterionCheck} from './types.js'

// The YAML parser loads on the first frontmatter read: the model's terms (and a tool that
// only needs them) load this file with the dialect registry, and most files have no frontmatter.
// A named `require`, so the package check sees the dependency it loads on first use.
const require = createRequire(import.meta.url)
let yamlModule: typeof import('yaml') | undefined
export function yaml(): typeof import('yaml') {
  yamlModule ??= require('yaml') as typeof import('yaml')
  return yamlModule
}

/** What a contract’s frontmatter gives: its fields, name and where it starts. */
export interface FrontmatterContract {
  id: string | null
  name: string
  headingPosition: Position
  fields: ContractField[]
}

// Keys that make frontmatter a contract, written exactly (but for case and separators): other files
// have frontmatter too, and slice state’s `step: complete` is no misspelt `steps`. `id` counts when it is `C-NN`.
const contractKeys = new Set<string>(['contract', 'verification', 'acceptanceCriteria', 'steps'])

// A line that makes frontmatter a contract’s, read without the YAML parser: a contract key, or an `id` naming `C-NN`.
const contractLine = /^(?:contract|verification|acceptance[ _-]?criteria|steps)[ \t]*:|^id[ \t]*:.*\bC-?\d/im

/** The known field a frontmatter key names with its correct label, or `null` (variants and near misses are not enough to make a contract). */
function exactKey(key: string): string | null {
  return isCorrectLabel(key) ? resolveFieldKey(key) : null
}

/**
 * One contract per file in YAML frontmatter (`id`, `contract`, `slice`,
 * `verification`, `acceptance_criteria`, `steps`). Positions point into the
 * YAML, offset by the frontmatter node’s own position.
 */
export function readFrontmatter(node: Yaml, locator: Locator): {contract: FrontmatterContract | null; problems: ContractProblem[]} {
  const problems: ContractProblem[] = []
  if (!node.position) return {contract: null, problems}
  const {isMap, isScalar, isSeq, LineCounter, parseDocument} = yaml()
  const lineCounter = new LineCounter()
  // YAML 1.2 breaks lines at a lone CR too, the `yaml` parser only at LF: give it LFs when CR alone ends the lines
  // (same length, so every index stays). A CR inside lines that LF ends is kept, as YAML keeps it in quoted strings.
  const text = node.value.includes('\n') ? node.value : node.value.replace(/\r/g, '\n')
  const document = parseDocument(text, {lineCounter, prettyErrors: false, uniqueKeys: false})
  const base = contentStart(node, locator)
  // Block nodes’ ranges take in the line break after them: stop at the last character.
  const place = (from: number, to: number): Position => {
    let end = to
    while (end > from && /\s/.test(node.value.charAt(end - 1))) end--
    return {start: pointAt(from), end: pointAt(end)}
  }
  function pointAt(index: number): Point {
    // With the source, let it place points in the YAML: YAML does not count a lone CR as a line break, markdown does.
    const exact = base.offset === undefined || index > node.value.length ? undefined : locator.toPoint(base.offset + index)
    if (exact) return exact
    const {line, col} = lineCounter.linePos(index)
    const point: Point = {line: base.line + line - 1, column: col}
    if (base.offset !== undefined) point.offset = base.offset + index
    return point
  }
  const nodePlace = (yamlNode: YamlNode | null | undefined, fallback: Position): Position =>
    yamlNode?.range ? place(yamlNode.range[0], yamlNode.range[1]) : fallback
  // A value as written (`.inf`, `"abc"`), on one line, and where.
  const written = (yamlNode: YamlNode): Written | null =>
    yamlNode.range
      ? {text: text.slice(yamlNode.range[0], yamlNode.range[1]).trim().replace(/\s+/g, ' '), place: place(yamlNode.range[0], yamlNode.range[1])}
      : null

  const error = document.errors[0]
  // Frontmatter that does not parse is judged only when a line of it names a contract: other files
  // (agent definitions) write frontmatter that is not strict YAML, and it is not a contract’s problem.
  if (error && !contractLine.test(node.value)) return {contract: null, problems}
  if (error) {
    const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
    // An error at the end of the YAML may point one past it: keep the place inside the frontmatter’s text,
    // on its last character.
    const length = node.value.length
    const to = Math.min(Math.max(error.pos[1], error.pos[0]), length)
    let from = Math.min(error.pos[0], to)
    if (from === to && to === length && to > 0) from = to - 1
    problems.push({kind: 'yaml-syntax', subject: 'frontmatter', part: 'field', actual: reason, expected: 'valid YAML', place: place(from, to)})
    return {contract: null, problems}
  }
  const contents = document.contents
  if (!isMap(contents)) return {contract: null, problems}
  const pairs = contents.items as Array<Pair<unknown, unknown>>
  const keyOf = (pair: Pair<unknown, unknown>) => (isScalar(pair.key) ? String(pair.key.value) : '')
  const scalarOf = (wanted: string) => {
    const pair = pairs.find((candidate) => resolveFieldKey(keyOf(candidate)) === wanted)
    return pair && isScalar(pair.value) && pair.value.value != null ? String(pair.value.value).trim() : null
  }
  const id = scalarOf('id')
  const name = scalarOf('contract')
  const isContract = (id !== null && /^C-?\d+$/i.test(id)) || pairs.some((pair) => contractKeys.has(exactKey(keyOf(pair)) ?? ''))
  if (!isContract) return {contract: null, problems}

  const fields: ContractField[] = []
  for (const pair of pairs) {
    const keyNode = isScalar(pair.key) ? pair.key : null
    if (!keyNode?.range) continue
    const label = keyOf(pair)
    const labelPosition = place(keyNode.range[0], keyNode.range[1])
    const valueNode = (pair.value ?? null) as YamlNode | null
    const field = labelledField(label, '', 'frontmatter', 'frontmatter', {
      position: {start: labelPosition.start, end: nodePlace(valueNode, labelPosition).end},
      labelPosition,
      valuePosition: null
    })
    const key = field.key
    const listField = isListField(field)
    // Only the fields the model reads have a shape; other keys (`tags`, `dependencies`) may hold anything.
    const textField = key === 'id' || key === 'contract' || key === 'slice' || key === 'verification'
    if (isScalar(valueNode) && valueNode.value != null && String(valueNode.value).trim() !== '') {
      field.value = String(valueNode.value).trim()
      field.valuePosition = nodePlace(valueNode, labelPosition)
      if (listField) {
        // Read a lone string as one item, so the contract is not also empty.
        field.items.push({...splitCheck(field.value), position: field.valuePosition})
        problems.push(shapeProblem(label, 'text', 'a list', field.valuePosition))
      }
    } else if (isSeq(valueNode)) {
      field.hasList = true
      for (const item of valueNode.items as YamlNode[]) {
        const read = readItem(item, nodePlace(item, field.position), listField ? problems : [], label, written)
        if (read) field.items.push(read)
      }
      if (textField) problems.push(shapeProblem(label, 'a list', 'text', field.position))
    } else if (isMap(valueNode) && (listField || textField)) {
      problems.push(shapeProblem(label, 'a mapping', listField ? 'a list' : 'text', field.position))
    }
    fields.push(field)
  }
  const headingPair = pairs.find((pair) => resolveFieldKey(keyOf(pair)) === 'contract') ?? pairs.find((pair) => resolveFieldKey(keyOf(pair)) === 'id')
  const headingKey = headingPair && isScalar(headingPair.key) ? headingPair.key : null
  const headingValue = (headingPair?.value ?? null) as YamlNode | null
  const headingPosition = headingKey?.range
    ? {start: place(headingKey.range[0], headingKey.range[0]).start, end: nodePlace(headingValue, place(headingKey.range[0], headingKey.range[1])).end}
    : node.position
  // `C6` is `C-6`, as a heading `C6. Name` is.
  return {contract: {id: id ? normalizeContractId(id) : null, name: name ?? '', headingPosition, fields}, problems}
}

/** A YAML value’s source text and place. */
type Written = {text: string; place: Position}

/** An item is a string or a mapping `{text, verify: {method, command, timeout}}`. */
function readItem(
  item: YamlNode,
  position: Position,
  problems: ContractProblem[],
  label: string,
  written: (node: YamlNode) => Written | null
): ContractItem | null {
  const {isMap, isScalar} = yaml()
  if (isScalar(item)) {
    const text = item.value == null ? '' : String(item.value).trim()
    return text ? {...splitCheck(text), position} : null
  }
  if (isMap(item)) {
    const text = item.get('text')
    if (typeof text !== 'string' || text.trim() === '') {
      problems.push(shapeProblem(label, 'a mapping without `text`', 'a string or `text:`', position, 'item'))
      return null
    }
    return {text: text.trim(), position, check: readCheck(item.get('verify'), problems, written)}
  }
  problems.push(shapeProblem(label, 'a list', 'a string or `text:`', position, 'item'))
  return null
}

function readCheck(verify: unknown, problems: ContractProblem[], written: (node: YamlNode) => Written | null): CriterionCheck | null {
  const {isMap, isNode, isScalar} = yaml()
  if (!isMap(verify)) return null
  const method = verify.get('method')
  const command = verify.get('command')
  const check: CriterionCheck = {
    method: method === 'manual' ? 'manual' : 'bash',
    command: typeof command === 'string' && command.trim() !== '' ? command.trim() : null,
    timeout: null
  }
  const timeout: unknown = verify.get('timeout', true)
  // `timeout:` with no value (or `~`) sets none: the default applies.
  if (!isNode(timeout) || (isScalar(timeout) && timeout.value === null)) return check
  if (isScalar(timeout) && isCheckTimeout(timeout.value)) return {...check, timeout: timeout.value}
  // Anything else is a mistake to report, never a silent fall back to the default: a
  // `0` meant to turn the limit off would otherwise run with a minute.
  const bad = written(timeout)
  if (!bad) return check
  problems.push({kind: 'field-shape', subject: 'timeout', part: 'field', actual: `\`${bad.text}\``, expected: checkTimeoutRule, place: bad.place})
  return {...check, invalidTimeout: bad}
}

function shapeProblem(label: string, actual: string, expected: string, place: Position, part: 'field' | 'item' = 'field'): ContractProblem {
  return {kind: 'field-shape', subject: label, part, actual, expected, place}
}

/** Where the YAML text starts: the line after the opening `---`. */
function contentStart(node: Yaml, locator: Locator): Point {
  const start = node.position!.start
  const line = start.line + 1
  if (locator.source !== null && start.offset !== undefined) {
    const ending = /\r\n?|\n/g
    ending.lastIndex = start.offset
    const newline = ending.exec(locator.source)
    if (newline) return {line, column: 1, offset: newline.index + newline[0].length}
  }
  const fence = node.value.includes('\r\n') ? 5 : 4
  return start.offset === undefined ? {line, column: 1} : {line, column: 1, offset: start.offset + fence}
}
