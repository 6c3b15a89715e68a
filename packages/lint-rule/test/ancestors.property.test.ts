/**
 * A message's `ancestors` are found by walking down from the root into the
 * nodes that hold its place: on any markdown, for any place, the path is the
 * one a walk over every node gives (the last node, in tree order, whose
 * offsets hold the whole place, with all its ancestors).
 */
import fc from 'fast-check'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import type {Node, Position} from 'unist'
import {describe, expect, it} from 'vitest'
import {ancestorsAt} from '../lib/ancestors.js'

/** The path every node's walk gives: each node with offsets that holds the place, the last in tree order wins. */
function ancestorsByWalk(tree: Root, place: Position): Node[] | undefined {
  const from = place.start.offset
  const to = place.end.offset
  if (from === undefined || to === undefined) return undefined
  let found: Node[] | undefined
  const walk = (node: Node, path: Node[]) => {
    const start = node.position?.start.offset
    const end = node.position?.end.offset
    if (start !== undefined && end !== undefined && start <= from && end >= to) found = path
    if ('children' in node && Array.isArray(node.children)) for (const child of node.children as Node[]) walk(child, [...path, child])
  }
  walk(tree, [tree])
  return found
}

// Pieces of markdown that nest, touch and leave gaps: containers, fences, inline markup, HTML, frontmatter, line endings.
const piece = fc.constantFrom(
  '# C-01: Title',
  '### Contract: Name',
  '- item',
  '  - nested',
  '1. first',
  '> quote',
  '> > deeper',
  '```text',
  '```',
  '~~~',
  '    indented code',
  '**Verification:** verify',
  'Steps: *one* and `two`',
  '[link](https://example.com) ![img](a.png)',
  '<div>',
  '</div>',
  '<!-- note -->',
  '---',
  'title: x',
  'plain words',
  '* * *',
  '',
  ' ',
  '\t',
  'a\\',
  '| a | b |'
)
const separator = fc.constantFrom('\n', '\n\n', '\r\n', ' ', '')
const markdown = fc.array(fc.tuple(piece, separator), {maxLength: 20}).map((parts) => parts.map(([text, end]) => text + end).join(''))
const processor = unified().use(remarkParse).use(remarkFrontmatter)

describe('ancestorsAt', () => {
  it('gives the path a walk over every node gives, for every node’s place, its ends and any span, with or without nodes that have no position', () => {
    fc.assert(
      fc.property(markdown, fc.array(fc.tuple(fc.nat(), fc.nat({max: 40})), {maxLength: 6}), fc.nat({max: 5}), (text, spans, unplacedEvery) => {
        const tree = processor.parse(text)
        const places: Position[] = []
        // Nodes a plugin made have no position: every few nodes lose theirs (none when 0).
        let count = 0
        const unplace = (node: Node) => {
          if (unplacedEvery > 0 && node !== tree && ++count % unplacedEvery === 0) delete node.position
          if ('children' in node && Array.isArray(node.children)) for (const child of node.children as Node[]) unplace(child)
        }
        const collect = (node: Node) => {
          // Its own place, and an empty place at each end: where two siblings touch, both hold it.
          if (node.position)
            places.push(node.position, {start: node.position.start, end: node.position.start}, {start: node.position.end, end: node.position.end})
          if ('children' in node && Array.isArray(node.children)) for (const child of node.children as Node[]) collect(child)
        }
        collect(tree)
        unplace(tree)
        for (const [start, length] of spans) {
          const from = text.length === 0 ? 0 : start % (text.length + 1)
          const to = Math.min(text.length, from + length)
          places.push({start: {line: 1, column: 1, offset: from}, end: {line: 1, column: 1, offset: to}})
        }
        for (const place of places) expect(ancestorsAt(tree, place)).toEqual(ancestorsByWalk(tree, place))
      }),
      {numRuns: 200}
    )
  })

  it('gives nothing for a place without offsets', () => {
    const tree = processor.parse('# C-01: Title\n')
    expect(ancestorsAt(tree, {start: {line: 1, column: 1}, end: {line: 1, column: 4}})).toBeUndefined()
  })
})
