/**
 * micromark's `EditMap.prototype.consume`, replaced by `linearConsume` (see
 * `lib/edit-map.ts`), gives what the original gives: the same events, in
 * the same array, for any events and any edits; the same tree for any
 * markdown. Only the known original is replaced, and micromark's own
 * `EditMap` is the one replaced. Speed is measured by `npm run bench`, not
 * here.
 */
import fc from 'fast-check'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import {gfmTable} from 'micromark-extension-gfm-table'
import {EditMap} from 'micromark-util-edit-map'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import type {Processor} from 'unified'
import {unified} from 'unified'
import {describe, expect, it} from 'vitest'
import {affectedConsume, editMapPatch, fingerprint, linearConsume, patchConsume} from '../edit-map.js'

type Events = Parameters<EditMap['consume']>[0]

const original = editMapPatch.original
/** The replacement installed: this module's, or that of another copy loaded first (the tests load the sources and the built package), which this copy found and kept. */
const installed = EditMap.prototype.consume

describe('the guard', () => {
  it('replaced the installed consume, the known original (micromark-util-edit-map 1.0.0)', () => {
    expect(editMapPatch.state).toBe('patched')
    expect(fingerprint(original)).toBe(affectedConsume)
    expect(fingerprint(installed)).toBe(fingerprint(linearConsume))
  })

  it('micromark parses with the replaced one: its EditMap is this one', () => {
    let calls = 0
    EditMap.prototype.consume = function (this: EditMap, events: Events) {
      calls++
      return linearConsume.call(this, events)
    }
    try {
      unified().use(remarkParse).parse('- a\n\nb\n\n> - c\nd\n')
    } finally {
      EditMap.prototype.consume = installed
    }
    expect(calls).toBeGreaterThan(0)
  })

  it('leaves any other consume alone: changed in any way, or a release that fixes it', () => {
    const source = String(original)
    const changed = [
      // One more event copied out of place: another function, however small the change.
      new Function(`return {${source.replace('events.slice())', 'events.slice(1))')}}`)().consume,
      function consume(this: EditMap, events: Events) {
        return linearConsume.call(this, events)
      }
    ]
    for (const consume of changed) {
      const prototype = {consume}
      expect(patchConsume(prototype)).toEqual({state: 'kept', original: consume})
      expect(prototype.consume).toBe(consume)
    }
    // The same code, built another way (comments, spaces and semicolons aside), is the known one.
    const rebuilt = new Function(`return {${source.replaceAll(';', '').replaceAll('  ', '\t')}}`)().consume
    const prototype = {consume: rebuilt}
    expect(patchConsume(prototype)).toEqual({state: 'patched', original: rebuilt})
    expect(prototype.consume).toBe(linearConsume)
    // Patched once, a second copy of the module finds it patched and keeps the first original.
    expect(patchConsume(prototype)).toEqual({state: 'patched', original: rebuilt})
  })
})

/** An edit as `add` or `addBefore` takes it: where, how many events it removes, which it adds. */
const edit = fc.record({at: fc.nat({max: 40}), remove: fc.nat({max: 6}), add: fc.array(fc.nat({max: 20}), {maxLength: 4}), before: fc.boolean()})

describe('linearConsume', () => {
  it('gives the same events as the original, in the same array, for any events and edits', () => {
    fc.assert(
      fc.property(fc.nat({max: 36}), fc.array(edit, {maxLength: 10}), (length, edits) => {
        // Events and added items are distinct objects, the same ones for both runs, so that places are compared by identity.
        const events = Array.from({length}, (_, index) => ({event: index}))
        const added = Array.from({length: 21}, (_, index) => ({added: index}))
        const run = (consume: EditMap['consume']) => {
          const map = new EditMap()
          for (const {at, remove, add, before} of edits) {
            const items = add.map((index) => added[index]) as unknown as Events
            if (before) map.addBefore(at, remove, items)
            else map.add(at, remove, items)
          }
          const target = events.slice() as unknown as Events
          consume.call(map, target)
          return {target, map}
        }
        const expected = run(original)
        const actual = run(linearConsume)
        // `toStrictEqual` tells a hole from `undefined`.
        expect(actual.target).toStrictEqual(expected.target)
        expect(actual.target.every((item, index) => item === expected.target[index])).toBe(true)
        expect([actual.map.map.length, actual.map.index.size]).toEqual([0, 0])
      }),
      {
        numRuns: 2000,
        examples: [
          // No edit; an edit past the end (the gap); edits that overlap; two at one place.
          [5, []],
          [3, [{at: 7, remove: 0, add: [1], before: false}]],
          [
            10,
            [
              {at: 2, remove: 5, add: [1, 2], before: false},
              {at: 4, remove: 1, add: [3], before: true}
            ]
          ],
          [
            10,
            [
              {at: 6, remove: 0, add: [1], before: false},
              {at: 6, remove: 2, add: [2], before: true},
              {at: 0, remove: 1, add: [], before: false}
            ]
          ]
        ]
      }
    )
  })
})

/** GitHub's tables, as the readers of tool files parse them. */
function tables(this: Processor): void {
  const data = this.data()
  ;(data.micromarkExtensions ??= []).push(gfmTable())
  ;(data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown())
}

/** Lines that make and break containers: lists, quotes, lazy lines, fences, tables, HTML, contracts. */
const line = fc.oneof(
  fc.constantFrom('- a', '* b', '+ c', '1. d', '2) e', '- [ ] task', '-', '> q', '> - in a quote', '>', 'lazy text', '', '   ', '### C-1: X'),
  fc.constantFrom(
    '**Verification:** verify',
    '**Acceptance Criteria:**',
    '```',
    '~~~js',
    '    indented code',
    '| a | b |',
    '| - | - |',
    '<div>',
    '</div>',
    '---',
    '***',
    '[x]: /u',
    'a  ',
    'b\\',
    '*e*',
    '**'
  ),
  fc
    .tuple(fc.constantFrom('', ' ', '  ', '   ', '    ', '\t', '> ', '- ', '1. '), fc.constantFrom('- item', 'text', '> quote', '```', '| c |', '#### h'))
    .map(([indent, text]) => indent + text)
)
const markdown = fc.tuple(fc.array(line, {maxLength: 40}), fc.constantFrom('\n', '\r\n', '\r')).map(([lines, ending]) => lines.join(ending))

describe('remark-parse with linearConsume', () => {
  it('gives the same tree as with the original, for any markdown', () => {
    const processors = [unified().use(remarkParse), unified().use(remarkParse).use(remarkFrontmatter).use(tables)]
    const parse = (text: string, consume: EditMap['consume']) => {
      EditMap.prototype.consume = consume
      try {
        return processors.map((processor) => JSON.stringify(processor.parse(text)))
      } finally {
        EditMap.prototype.consume = installed
      }
    }
    fc.assert(
      fc.property(markdown, (text) => {
        expect(parse(text, linearConsume)).toEqual(parse(text, original))
      }),
      {
        numRuns: 1000,
        examples: [
          [
            '### C-1: X\n\n**Verification:** verify\n**Acceptance Criteria:**\n- item 1\n\n### C-2: X\n\n**Verification:** verify\n**Acceptance Criteria:**\n- item 2\n'
          ]
        ]
      }
    )
  })
})
