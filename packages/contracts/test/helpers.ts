/** What the model’s tests share: read contracts with the file, and show positions. */
import {extractContracts} from '@verification-tiers/contracts'
import type {Contract} from '@verification-tiers/contracts'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import type {Position} from 'unist'
import {VFile} from 'vfile'
import {location} from 'vfile-location'
import {expect} from 'vitest'

/** Contracts of `value`, read with the file so positions carry offsets. */
export function read(value: string): Contract[] {
  const file = new VFile({path: 'CONTRACTS.md', value})
  const tree: Root = unified().use(remarkParse).use(remarkFrontmatter).parse(file)
  return extractContracts(tree, file)
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
