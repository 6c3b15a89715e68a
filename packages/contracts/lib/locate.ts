import type {Point, Position} from 'unist'
import type {VFile} from 'vfile'
import {location} from 'vfile-location'
import {lineAfter, lineEndIn} from './text-lines.js'

/** Maps offsets of the document to points, with or without its source. */
export interface Locator {
  /** Source text, when the file was given. */
  source: string | null
  /** Point of an offset of the source (needs `source`). */
  toPoint(offset: number): Point | undefined
  /** Offset of the start of a 1-based line (needs `source`). */
  lineStart(line: number): number | undefined
  /**
   * Offset of the start of the line `lines` (one or more) lines after the
   * one holding `offset`, stepped line by line: for a line near a known offset, without
   * indexing the lines before it (needs `source`; `undefined` past the end).
   */
  lineStartAfter(offset: number, lines: number): number | undefined
  /** Where the line that starts at `offset` of the source ends: its LF or CR, or the end (needs `source`). */
  lineEnd(offset: number): number
  /**
   * Whether a node’s source may hold a fenced code block: it has three
   * backticks or tildes somewhere. `true` without the source or offsets.
   */
  mayHoldFence(node: {position?: Position | undefined}): boolean
}

export function createLocator(file: VFile | undefined): Locator {
  // micromark drops a leading byte order mark and counts every point from after it: so must the source.
  const value = file && file.value !== undefined ? String(file.value) : null
  const source = value !== null && value.charCodeAt(0) === 0xfeff ? value.slice(1) : value
  return source === null ? noSource : new SourceLocator(source)
}

/** Without the source: no offsets, no lines, and any node may hold a fence. */
const noSource: Locator = {
  source: null,
  toPoint: () => undefined,
  lineStart: () => undefined,
  lineStartAfter: () => undefined,
  lineEnd: () => 0,
  mayHoldFence: () => true
}

/**
 * A locator over a source. A class, not closures made per file: its methods,
 * asked for every line and node, are compiled once, not once per file.
 */
class SourceLocator implements Locator {
  readonly source: string
  private readonly place: ReturnType<typeof location>
  // The point asked for a line's start: one object, filled in on each ask (`toOffset` keeps none).
  private readonly lineHead = {line: 1, column: 1}
  // Where each run of three backticks or tildes starts, in order: found once, when first asked.
  private fenceMarks: number[] | undefined = undefined
  // Whether the source has no CR: looked for on the first ask.
  private lineFeedsOnly: boolean | undefined = undefined

  constructor(source: string) {
    this.source = source
    this.place = location(source)
  }

  mayHoldFence(node: {position?: Position | undefined}): boolean {
    const start = node.position?.start.offset
    const end = node.position?.end.offset
    if (start === undefined || end === undefined) return true
    this.fenceMarks ??= marksOf(this.source, ['```', '~~~'])
    const first = firstAtOrAfter(this.fenceMarks, start)
    return first < this.fenceMarks.length && this.fenceMarks[first]! < end
  }

  lineEnd(offset: number): number {
    this.lineFeedsOnly ??= !this.source.includes('\r')
    return lineEndIn(this.source, offset, this.lineFeedsOnly)
  }

  toPoint(offset: number): Point | undefined {
    return this.place.toPoint(offset)
  }

  lineStart(line: number): number | undefined {
    this.lineHead.line = line
    return this.place.toOffset(this.lineHead)
  }

  lineStartAfter(offset: number, lines: number): number | undefined {
    let at: number | undefined = offset
    for (let count = 0; count < lines && at !== undefined; count++) at = lineAfter(this.source, this.lineEnd(at))
    return at
  }
}

/** Every offset where one of `marks` starts in `source`, in order. */
function marksOf(source: string, marks: readonly string[]): number[] {
  const found: number[] = []
  for (const mark of marks) {
    for (let at = source.indexOf(mark); at !== -1; at = source.indexOf(mark, at + 1)) found.push(at)
  }
  return found.sort((a, b) => a - b)
}

/** The index of the first of the sorted `values` at or after `value` (their length when none is). */
function firstAtOrAfter(values: readonly number[], value: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (values[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * Point `index` characters into `text`, which starts at `start`: counts the
 * line breaks on the way (jumping from LF to LF with `indexOf` where no CR
 * comes first; character by character otherwise), so it needs no source.
 */
export function advance(start: Point, text: string, index: number): Point {
  let line = start.line
  let column = start.column
  let lineBegin = 0
  const carriageReturn = text.indexOf('\r')
  if (carriageReturn === -1 || carriageReturn >= index) {
    // No CR before `index` (most text): only LFs, found with `indexOf`.
    for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
      line++
      column = 1
      lineBegin = at + 1
    }
    return pointAt(start, line, column + (index - lineBegin), index)
  }
  // Line endings as markdown counts them: LF, CRLF, or a lone CR; one that ends after `index` does not count.
  for (let at = 0; at < index; at++) {
    const code = text.charCodeAt(at)
    if (code !== 0x0a && code !== 0x0d) continue
    const end = code === 0x0d && text.charCodeAt(at + 1) === 0x0a ? at + 2 : at + 1
    if (end > index) break
    line++
    column = 1
    lineBegin = end
    at = end - 1
  }
  return pointAt(start, line, column + (index - lineBegin), index)
}

/** The point at `line` and `column`, `index` characters after `start`: with an offset when `start` has one. */
function pointAt(start: Point, line: number, column: number, index: number): Point {
  return start.offset === undefined ? {line, column} : {line, column, offset: start.offset + index}
}

export function span(start: Point, end: Point): Position {
  return {start, end}
}
