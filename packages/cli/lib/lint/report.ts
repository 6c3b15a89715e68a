import stringWidth from 'string-width'
import {stringifyPosition} from 'unist-util-stringify-position'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {compareFile, compareMessage} from 'vfile-sort'
import {statistics} from 'vfile-statistics'

// The report of the remark CLI is vfile-reporter's. It measures every cell
// with string-width, which segments each string with Intl.Segmenter: on a
// report of 4,500 messages that is a quarter of the whole lint. This writes
// the same report (test/lint-report.test.ts compares them byte for byte) and
// measures printable ASCII by its length, asking string-width for the rest.

/** What the report shows: the remark CLI’s `--quiet`, `--silent` and `--color`. */
export interface ReportOptions {
  color: boolean
  quiet: boolean
  silent: boolean
}

interface Style {
  quiet: boolean
  silent: boolean
  bold: string
  underline: string
  normalIntensity: string
  noUnderline: string
  red: string
  cyan: string
  green: string
  yellow: string
  defaultColor: string
}

type Row = string | string[]

const eol = /\r?\n|\r/
const ansi = /\u001B\[\d+m/g
const printableAscii = /^[\u0020-\u007E]*$/

/** Terminal width of a cell, as string-width counts it. */
function width(cell: string): number {
  const plain = cell.includes('\u001B') ? cell.replace(ansi, '') : cell
  return printableAscii.test(plain) ? plain.length : stringWidth(cell)
}

function style(options: ReportOptions): Style {
  const on = options.color
  return {
    quiet: options.quiet,
    silent: options.silent,
    bold: on ? '\u001B[1m' : '',
    underline: on ? '\u001B[4m' : '',
    normalIntensity: on ? '\u001B[22m' : '',
    noUnderline: on ? '\u001B[24m' : '',
    red: on ? '\u001B[31m' : '',
    cyan: on ? '\u001B[36m' : '',
    green: on ? '\u001B[32m' : '',
    yellow: on ? '\u001B[33m' : '',
    defaultColor: on ? '\u001B[39m' : ''
  }
}

function label(fatal: boolean | null | undefined): string {
  return fatal ? 'error' : fatal === false ? 'warning' : 'info'
}

/** Code in a reason (between equal runs of backticks) in cyan, the whole in bold. */
function formatReason(state: Style, reason: string): string {
  const splits: Array<{index: number; size: number}> = []
  let index = reason.indexOf('`')
  while (index !== -1) {
    const split = {index, size: 1}
    splits.push(split)
    while (reason.codePointAt(index + 1) === 96) {
      split.size++
      index++
    }
    index = reason.indexOf('`', index + 1)
  }
  const result: string[] = []
  let textStart = 0
  for (let open = 0; open < splits.length; open++) {
    const opening = splits[open] as {index: number; size: number}
    let closing = open + 1
    while (closing < splits.length && (splits[closing] as {size: number}).size !== opening.size) closing++
    const close = splits[closing]
    if (close) {
      const codeEnd = close.index + close.size
      result.push(reason.slice(textStart, opening.index) + state.cyan + reason.slice(opening.index, codeEnd) + state.defaultColor)
      textStart = codeEnd
      open = closing
    }
  }
  result.push(reason.slice(textStart))
  return state.bold + result.join('') + state.normalIntensity
}

function causeLines(state: Style, cause: unknown): Row[] {
  const lines: Row[] = ['  ' + state.bold + '[cause]' + state.normalIntensity + ':']
  let reasonable = false
  if (cause !== null && typeof cause === 'object') {
    const stack = ('stack' in cause ? String(cause.stack) : undefined) || ('message' in cause ? String(cause.message) : undefined)
    if (typeof stack === 'string') {
      reasonable = true
      let rows: Row[]
      if ('file' in cause && 'fatal' in cause) rows = messageLines(state, cause as VFileMessage)
      else {
        rows = stack.split(eol)
        if ('cause' in cause && cause.cause) rows.push(...causeLines(state, cause.cause))
      }
      const head = rows[0]
      if (typeof head === 'string') rows[0] = '    ' + head
      else if (head) head[0] = '    ' + head[0]
      lines.push(...rows)
    }
  }
  if (!reasonable) lines.push('    ' + String(cause))
  return lines
}

function messageLines(state: Style, message: VFileMessage): Row[] {
  const kind = label(message.fatal)
  let reason = message.stack || message.message
  let rest: Row[] = []
  const match = eol.exec(reason)
  if (match) {
    rest = reason.slice(match.index + 1).split(eol)
    reason = reason.slice(0, match.index)
  }
  const place = message.place ?? (message as {position?: VFileMessage['place']}).position
  const row = [
    stringifyPosition(place),
    (kind === 'error' ? state.red : state.yellow) + kind + state.defaultColor,
    formatReason(state, reason),
    message.ruleId || '',
    message.source || ''
  ]
  if (message.cause) rest.push(...causeLines(state, message.cause))
  return [row, ...rest]
}

function fileLine(state: Style, file: VFile): string {
  const stats = statistics(file.messages)
  const fromPath = file.history[0]
  const toPath = file.path
  const name = fromPath || '<stdin>'
  const left =
    state.underline +
    (stats.fatal ? state.red : stats.total ? state.yellow : state.green) +
    name +
    state.defaultColor +
    state.noUnderline +
    (file.stored && name !== toPath ? ' > ' + toPath : '')
  const right = file.stored ? state.yellow + 'written' + state.defaultColor : stats.total ? '' : 'no issues found'
  return left && right ? left + ': ' + right : left + right
}

function byline(state: Style, stats: ReturnType<typeof statistics>): string {
  let result = ''
  if (stats.fatal) result = state.red + '✖' + state.defaultColor + ' ' + stats.fatal + ' ' + label(true) + (stats.fatal === 1 ? '' : 's')
  if (stats.warn) {
    result = (result ? result + ', ' : '') + state.yellow + '⚠' + state.defaultColor + ' ' + stats.warn + ' ' + label(false) + (stats.warn === 1 ? '' : 's')
  }
  if (stats.total !== stats.fatal && stats.total !== stats.warn) result = stats.total + ' messages (' + result + ')'
  return result
}

function rows(state: Style, files: VFile[]): Row[] {
  const all: VFileMessage[] = []
  const result: Row[] = []
  let lastWasMessage = false
  for (const file of [...files].sort(compareFile)) {
    const messageRows: Row[] = []
    for (const message of [...file.messages].sort(compareMessage)) {
      if (!state.silent || message.fatal) {
        all.push(message)
        messageRows.push(...messageLines(state, message))
      }
    }
    if ((!state.quiet && !state.silent) || messageRows.length > 0) {
      const line = fileLine(state, file)
      if (lastWasMessage && line) result.push('')
      if (line) result.push(line)
      result.push(...messageRows)
      lastWasMessage = messageRows.length > 0
    }
  }
  const stats = statistics(all)
  if (stats.fatal || stats.warn) result.push('', byline(state, stats))
  return result
}

function serialize(rows: Row[]): string {
  const sizes: number[] = []
  const widths = rows.map((row) => {
    if (typeof row === 'string') return []
    return row.map((cell, index) => {
      const size = width(cell)
      if (size > (sizes[index] ?? 0)) sizes[index] = size
      return size
    })
  })
  return rows
    .map((row, index) => {
      if (typeof row === 'string') return row.trimEnd()
      const cellWidths = widths[index] as number[]
      let line = ''
      for (let cell = 0; cell < row.length; cell++) line += (row[cell] || '') + ' '.repeat((sizes[cell] ?? 0) + 1 - (cellWidths[cell] ?? 0))
      return line.trimEnd()
    })
    .join('\n')
}

/** The report vfile-reporter writes for `files` (several files, as the remark CLI reports them). */
export function reportFiles(files: VFile[], options: ReportOptions): string {
  return serialize(rows(style(options), files))
}
