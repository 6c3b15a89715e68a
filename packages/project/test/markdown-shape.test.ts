/**
 * What a message about a parse that ran out of time says of the file: its
 * size, contract headings, lists, items and nesting, read from its lines
 * (the parser is what was too slow). For lists of clean shape the counts are
 * the parser's own.
 */
import fc from 'fast-check'
import type {Nodes} from 'mdast'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {describe, expect, it} from 'vitest'
import {describeShape, markdownShape} from '../lib/markdown-shape.js'

/** `count` ordinary contracts, each with one list of one item, joined by blank lines. */
const contracts = (count: number) =>
  Array.from({length: count}, (_, n) => `### C-${n}: X\n\n**Verification:** verify\n**Acceptance Criteria:**\n- item ${n}\n`).join('\n')

describe('markdownShape', () => {
  it('ordinary contracts: a contract heading and a list of one item each', () => {
    const text = contracts(3)
    expect(markdownShape(text)).toEqual({bytes: Buffer.byteLength(text), contracts: 3, lists: 3, items: 3, depth: 1})
    expect(describeShape(markdownShape(text))).toBe('215 bytes: 3 contract headings, 3 lists of 3 items, lists and quotes nested at most 1 deep')
  })

  it('a list nested 300 deep, each level indented further: 300 lists, 300 deep', () => {
    const nested = Array.from({length: 300}, (_, level) => ' '.repeat(2 * level) + '- step').join('\n')
    expect(markdownShape(nested)).toEqual({bytes: 91_799, contracts: 0, lists: 300, items: 300, depth: 300})
  })

  it.for([
    [
      'siblings, nested lists, another bullet, a paragraph between',
      '- a\n- b\n  - c\n    1. d\n    2. e\n- f\n* g\n\ntext\n\n- h',
      {lists: 5, items: 8, depth: 3}
    ],
    ['markers on one line, a thematic break', '- - - x\n---\n* * *\n- y', {lists: 4, items: 4, depth: 3}],
    ['another delimiter, an item before the content column', '1. a\n1) b\n\n  - c', {lists: 3, items: 3, depth: 1}],
    ['quotes', '> - a\n> - b\n\n>>> c', {lists: 1, items: 2, depth: 3}],
    ['a tab, a paragraph inside an item', '- a\n\n  b\n- c\n\n\tx\n\t- d', {lists: 2, items: 3, depth: 2}],
    [
      'fenced code and frontmatter count for nothing',
      '---\nsteps:\n  - one\n---\n\n```\n- not\n### C-1: Not\n```\n~~~~\n- not\n~~~\n- still not\n~~~~\n# C-2: Yes',
      {contracts: 1, lists: 0, items: 0, depth: 0}
    ],
    [
      'headings that are no contract',
      '# Notes\n## S-01: Slice\n### C-3. Name ###\n#### Contract: Named\n#nope C-4: X',
      {contracts: 2, lists: 0, items: 0, depth: 0}
    ],
    ['nothing', '', {contracts: 0, lists: 0, items: 0, depth: 0}]
  ] as const)('%s', ([, text, expected]) => {
    expect(markdownShape(text)).toMatchObject(expected)
  })

  it('describes one of each in the singular', () => {
    expect(describeShape({bytes: 1, contracts: 1, lists: 1, items: 1, depth: 1})).toBe(
      '1 byte: 1 contract heading, 1 list of 1 item, lists and quotes nested at most 1 deep'
    )
  })
})

/** Lists, list items and the deepest nesting of lists in a tree. */
function treeLists(node: Nodes, depth = 0): {lists: number; items: number; depth: number} {
  const inner = node.type === 'list' ? depth + 1 : depth
  const counts = {lists: node.type === 'list' ? 1 : 0, items: node.type === 'listItem' ? 1 : 0, depth: inner}
  for (const child of 'children' in node ? node.children : []) {
    const below = treeLists(child, inner)
    counts.lists += below.lists
    counts.items += below.items
    counts.depth = Math.max(counts.depth, below.depth)
  }
  return counts
}

/** Lists of clean shape: each item one line (or two, with a lazy line), indented to its parent's content, any marker, paragraphs and blank lines between. */
const cleanLists = fc
  .array(fc.tuple(fc.integer({min: -3, max: 1}), fc.constantFrom('-', '*', '+', '1.', '1)'), fc.constantFrom('', '\n', '\ntext\n', 'lazy')), {maxLength: 40})
  .map((steps) => {
    const content: number[] = []
    const lines: string[] = []
    for (const [step, marker, after] of steps) {
      const level = Math.max(0, Math.min(content.length, content.length - 1 + step))
      content.length = level
      const indent = level === 0 ? 0 : content[level - 1]!
      lines.push(`${' '.repeat(indent)}${marker} item`)
      content.push(indent + marker.length + 1)
      if (after !== '') {
        lines.push(after)
        // A paragraph at the margin ends every list.
        if (after.includes('text')) content.length = 0
      }
    }
    return lines.join('\n')
  })

describe('markdownShape of clean lists', () => {
  it('counts the lists, items and nesting remark-parse builds', () => {
    const parser = unified().use(remarkParse)
    fc.assert(
      fc.property(cleanLists, (text) => {
        const {lists, items, depth} = markdownShape(text)
        expect({lists, items, depth}).toEqual(treeLists(parser.parse(text)))
      }),
      {numRuns: 500}
    )
  })
})
