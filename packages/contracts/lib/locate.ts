import type {Point} from 'unist'
import type {VFile} from 'vfile'
import {location} from 'vfile-location'
import {withoutByteOrderMark} from './lines.js'

/** Maps offsets of the document to points, with or without its source. */
export interface Locator {
  /** Source text, when the file was given. */
  source: string | null
  /** Point of an offset of the source (needs `source`). */
  toPoint(offset: number): Point | undefined
  /** Offset of the start of a 1-based line (needs `source`; `undefined` past the end). */
  lineStart(line: number): number | undefined
  /** Where the line that starts at `offset` of the source ends: its LF or CR, or the end (needs `source`). */
  lineEnd(offset: number): number
}

export function createLocator(file: VFile | undefined): Locator {
  if (file?.value === undefined) return {source: null, toPoint: () => undefined, lineStart: () => undefined, lineEnd: () => 0}
  const source = withoutByteOrderMark(String(file.value))
  const place = location(source)
  const lineEnding = /[\r\n]/g
  return {
    source,
    toPoint: place.toPoint,
    lineStart: (line) => place.toOffset({line, column: 1}),
    lineEnd(offset) {
      lineEnding.lastIndex = offset
      return lineEnding.exec(source)?.index ?? source.length
    }
  }
}

/**
 * Point `index` characters into `text`, which starts at `start`, counting
 * the line endings on the way as markdown counts them (LF, CRLF, or a lone
 * CR; one that ends after `index` does not count), so it needs no source.
 */
export function advance(start: Point, text: string, index: number): Point {
  let line = start.line
  let lineBegin = 0
  for (const ending of text.matchAll(/\r\n?|\n/g)) {
    const end = ending.index + ending[0].length
    if (end > index) break
    line++
    lineBegin = end
  }
  const column = (lineBegin === 0 ? start.column : 1) + index - lineBegin
  return start.offset === undefined ? {line, column} : {line, column, offset: start.offset + index}
}
