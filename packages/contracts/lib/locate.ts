import type {Point, Position} from 'unist'
import type {VFile} from 'vfile'
import {location} from 'vfile-location'

/** Maps offsets of the document to points, with or without its source. */
export interface Locator {
  /** Source text, when the file was given. */
  source: string | null
  /** Point of an offset of the source (needs `source`). */
  toPoint(offset: number): Point | undefined
  /** Offset of the start of a 1-based line (needs `source`). */
  lineStart(line: number): number | undefined
}

export function createLocator(file: VFile | undefined): Locator {
  // micromark drops a leading byte order mark and counts every point from after it: so must the source.
  const value = file && file.value !== undefined ? String(file.value) : null
  const source = value !== null && value.charCodeAt(0) === 0xfeff ? value.slice(1) : value
  if (source === null) {
    return {source, toPoint: () => undefined, lineStart: () => undefined}
  }
  const place = location(source)
  // The point asked for a line's start: one object, filled in on each ask (`toOffset` keeps none).
  const lineHead = {line: 1, column: 1}
  return {
    source,
    toPoint(offset) {
      return place.toPoint(offset)
    },
    lineStart(line) {
      lineHead.line = line
      return place.toOffset(lineHead)
    }
  }
}

/**
 * Point `index` characters into `text`, which starts at `start`: counts the
 * line breaks on the way, so it needs no source.
 */
export function advance(start: Point, text: string, index: number): Point {
  let line = start.line
  let column = start.column
  let lineBegin = 0
  // Most text has no line ending before `index` (a line of a paragraph): nothing to count.
  if (!hasLineEndingBefore(text, index)) {
    const point: Point = {line, column: column + index}
    if (start.offset !== undefined) point.offset = start.offset + index
    return point
  }
  // Line endings as markdown counts them: LF, CRLF, or a lone CR.
  const ending = /\r\n?|\n/g
  for (let match = ending.exec(text); match && match.index + match[0].length <= index; match = ending.exec(text)) {
    line++
    column = 1
    lineBegin = match.index + match[0].length
  }
  const result: Point = {line, column: column + (index - lineBegin)}
  if (start.offset !== undefined) result.offset = start.offset + index
  return result
}

/** Whether an LF or CR comes before `index` in `text`: where `advance` has lines to count. */
function hasLineEndingBefore(text: string, index: number): boolean {
  const feed = text.indexOf('\n')
  if (feed !== -1 && feed < index) return true
  const carriageReturn = text.indexOf('\r')
  return carriageReturn !== -1 && carriageReturn < index
}

export function span(start: Point, end: Point): Position {
  return {start, end}
}
