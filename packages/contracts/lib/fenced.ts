import type {Code} from 'mdast'
import type {Point, Position} from 'unist'
import {labelPattern} from './bold.js'
import {splitCheck} from './criterion.js'
import {isKnownLabel, labelFor, resolveFieldKey} from './fields.js'
import type {Locator} from './locate.js'
import type {ContractField, ContractItem, Dialect} from './types.js'

const commentPrefix = /^\s*\/\/ ?/
const itemLine = /^(\s+)(?:[-*+]|\d+[.)])(?:\s+(.*?))?\s*$/
const fieldLine = /^(.+?)\s*:(?:\s+(.*?))?\s*$/

/**
 * Fields written as plain `Field: value` lines in a fenced block, optionally
 * behind `// ` (Go-style comment blocks). Only unindented lines are fields;
 * indented `- ` lines are the items of the field above. Returns `null` when
 * the block names no known field: then it is code, not a contract.
 */
export function readBlockFields(code: Code, locator: Locator): ContractField[] | null {
  if (!code.position || !isFenced(code, locator)) return null
  // Line endings as markdown counts them: LF, CRLF, or a lone CR.
  const lines = code.value.split(/\r\n?|\n/)
  const nonEmpty = lines.filter((line) => line.trim() !== '')
  const dialect: Dialect = nonEmpty.length > 0 && nonEmpty.every((line) => /^\s*\/\//.test(line)) ? 'comment' : 'fenced'
  const at = lineLocator(code, lines, locator)
  const fields: ContractField[] = []
  let current: ContractField | null = null
  let known = false

  for (const [index, raw] of lines.entries()) {
    const prefix = dialect === 'comment' ? (commentPrefix.exec(raw)?.[0].length ?? 0) : 0
    const body = raw.slice(prefix)
    if (body.trim() === '') continue
    if (/^\s/.test(body)) {
      const item = itemLine.exec(body)
      if (item && current) {
        current.hasList = true
        const text = item[2] ?? ''
        if (text !== '') {
          const start = prefix + body.indexOf(text, (item[1] ?? '').length + 1)
          const read: ContractItem = {...splitCheck(text), position: at(index, start, start + text.length)}
          current.items.push(read)
          current.position = {start: current.position.start, end: read.position.end}
        }
      }
      continue
    }
    const field = fieldLine.exec(body)
    const label = field?.[1]
    if (!field || !label || !labelPattern.test(label)) {
      current = null
      continue
    }
    if (isKnownLabel(label)) known = true
    const key = resolveFieldKey(label)
    const value = field[2] ?? ''
    const valueStart = value ? prefix + body.indexOf(value, label.length + 1) : -1
    const labelPosition = at(index, prefix, prefix + label.length)
    const valuePosition = value ? at(index, valueStart, valueStart + value.length) : null
    current = {
      key,
      label,
      expectedLabel: key ? labelFor(key, dialect) : null,
      value,
      dialect,
      position: {start: labelPosition.start, end: (valuePosition ?? labelPosition).end},
      labelPosition,
      valuePosition,
      items: [],
      hasList: false
    }
    fields.push(current)
  }
  return known ? fields : null
}

/** Only fenced blocks hold contracts; indented code is left alone. */
function isFenced(code: Code, locator: Locator): boolean {
  const position = code.position!
  const offset = position.start.offset
  if (locator.source !== null && offset !== undefined) {
    return /^(`{3,}|~{3,})/.test(locator.source.slice(offset, offset + 3))
  }
  // Without the source: a fenced block spans its opening fence too, indented code only its content lines.
  return position.end.line - position.start.line + 1 > code.value.split(/\r\n?|\n/).length
}

/**
 * Position of columns `from`..`to` of content line `index`. The content of a
 * fence starts on the line after it; where the block is indented (in a list
 * or quote), the source line ends with the content line, which gives its
 * column.
 */
function lineLocator(code: Code, lines: string[], locator: Locator) {
  const first = code.position!.start
  return function (index: number, from: number, to: number): Position {
    const line = first.line + 1 + index
    let column = first.column
    let offset: number | undefined
    const lineStart = locator.lineStart(line)
    if (locator.source !== null && lineStart !== undefined) {
      const lineEnd = /[\r\n]/g
      lineEnd.lastIndex = lineStart
      const text = locator.source.slice(lineStart, lineEnd.exec(locator.source)?.index)
      const content = lines[index] ?? ''
      // The line ends as the content line does; only its indentation may differ, where a tab
      // partly taken by the fence’s or container’s indent comes out as spaces: count from the end.
      column = text.length - content.length + 1
      offset = lineStart + column - 1
    }
    const point = (at: number): Point => {
      if (offset === undefined) return {line, column: column + at}
      const shift = Math.max(at, 1 - column)
      return {line, column: column + shift, offset: offset + shift}
    }
    return {start: point(from), end: point(to)}
  }
}
