/** What the model’s tests share: read contracts with the file, and show positions. */
import {analyzeContracts, extractContracts} from '@verification-tiers/contracts'
import type {Contract, ContractAnalysis, ContractField, ContractItem, ContractText} from '@verification-tiers/contracts'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import type {Position} from 'unist'
import {VFile} from 'vfile'
import {location} from 'vfile-location'
import {expect} from 'vitest'

/** The file and tree of `value`, parsed as the rules see it. */
export function parse(value: string, path = 'CONTRACTS.md'): {file: VFile; tree: Root} {
  const file = new VFile({path, value})
  const tree: Root = unified().use(remarkParse).use(remarkFrontmatter).parse(file)
  return {file, tree}
}

/** Contracts of `value`, read with the file so positions carry offsets. */
export function read(value: string): Contract[] {
  const {file, tree} = parse(value)
  return extractContracts(tree, file)
}

/** Contracts and problems of `value`, read with the file. */
export function analyze(value: string, path?: string): ContractAnalysis {
  const {file, tree} = parse(value, path)
  return analyzeContracts(tree, file)
}

/** `line:column-line:column`, or `null`. */
export function span(position: Position | null | undefined): string | null {
  if (!position) return null
  return `${position.start.line}:${position.start.column}-${position.end.line}:${position.end.column}`
}

/** Source text a position covers, by its offsets; also checks offsets agree with line and column. */
export function cover(source: string, position: Position): string {
  const {start, end} = position
  const place = location(source)
  expect(place.toPoint(start.offset!)).toEqual(start)
  expect(place.toPoint(end.offset!)).toEqual(end)
  return source.slice(start.offset, end.offset)
}

/** A field as the tests compare it, with the number of its items. */
export function fieldSummary(one: ContractField) {
  return {
    key: one.key,
    label: one.label,
    expectedLabel: one.expectedLabel,
    value: one.value,
    dialect: one.dialect,
    position: span(one.position),
    labelPosition: span(one.labelPosition),
    valuePosition: span(one.valuePosition),
    items: one.items.length,
    hasList: one.hasList
  }
}

/** A field as `fieldSummary` gives it, with the texts of its items instead of their number. */
export function fieldWithItems(one: ContractField) {
  return {...fieldSummary(one), items: one.items.map((item) => item.text)}
}

/** An item as the tests compare it. */
export function itemSummary(item: ContractItem) {
  return {text: item.text, position: span(item.position), check: item.check}
}

/** Text under a criteria or steps label that is no list, as the tests compare it. */
export function unreadSummary(text: ContractText) {
  return {kind: text.kind, text: text.text, position: span(text.position)}
}

/** The field of `contract` labelled `label` (as written); throws when there is none. */
export function field(contract: Contract, label: string): ContractField {
  const found = contract.fields.find((candidate) => candidate.label === label)
  if (!found) throw new Error('No field ' + label + ' in ' + contract.label)
  return found
}
