/**
 * `parseInSections` must give the tree `fromMarkdown` gives for the whole
 * document: same nodes, same values, same positions (line, column, offset),
 * same root position, with no options and with the frontmatter extension.
 *
 * Small section sizes (1, 16, 64) split even short documents at every ATX
 * heading at column 0, which is what lets these tests fail. A spy on
 * `fromMarkdown` records what the function parsed, so the tests also check
 * that a document was split (the comparison is not vacuous) or parsed whole
 * (definitions, short documents), and where.
 *
 * Part 1: hand-written documents that break naive splitters. Part 2:
 * fast-check properties over documents assembled from tricky lines (fixed
 * seeds; `FUZZ_SCALE=10` runs ten times as many cases, `FUZZ_SEED` changes
 * the seeds).
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {inspect, isDeepStrictEqual} from 'node:util'
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {Options} from 'mdast-util-from-markdown'
import {frontmatterFromMarkdown} from 'mdast-util-frontmatter'
import {frontmatter} from 'micromark-extension-frontmatter'
import {describe, expect, it, vi} from 'vitest'
import {defaultSectionSize, parseInSections} from '../packages/cli/lib/lint/parse-in-sections.js'
import {contractDocument, noisyDocument, withLineEndings} from './fuzz/arbitraries.js'

// ---------------------------------------------------------------------------
// A spy on `fromMarkdown`: the texts `parseInSections` hands it, in order.

const spy = vi.hoisted(() => ({recording: false, texts: [] as string[]}))

vi.mock('mdast-util-from-markdown', async (importOriginal) => {
  const original = await importOriginal<typeof import('mdast-util-from-markdown')>()
  const fromMarkdown = ((...parameters: Parameters<typeof original.fromMarkdown>) => {
    if (spy.recording) spy.texts.push(String(parameters[0]))
    return original.fromMarkdown(...parameters)
  }) as typeof original.fromMarkdown
  return {...original, fromMarkdown}
})

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const withFrontmatter: Options = {extensions: [frontmatter()], mdastExtensions: [frontmatterFromMarkdown()]}
type OptionSet = readonly [name: string, options: Options | undefined]
const plainSet: OptionSet = ['no options', undefined]
const frontmatterSet: OptionSet = ['frontmatter', withFrontmatter]
const optionSets: readonly OptionSet[] = [plainSet, frontmatterSet]

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 7 : Number(process.env.FUZZ_SEED)
/** Properties get a minute per unit of scale. */
const propertyTimeout = 60_000 * Math.max(1, scale)
const settings = (count: number, seedOffset: number) => ({seed: baseSeed + seedOffset, numRuns: Math.max(1, Math.round(count * scale))})

/**
 * Run `parseInSections` and return its tree and the sections it kept: every
 * call of `fromMarkdown` parses a section, and a call that re-parses from the
 * same start with more text (a merge) replaces the one before it.
 */
function sectioned(value: string, options: Options | undefined, size: number): {tree: Root; sections: string[]} {
  spy.texts = []
  spy.recording = true
  let tree: Root
  try {
    tree = parseInSections(value, options, size)
  } finally {
    spy.recording = false
  }
  const texts = spy.texts
  const sections: string[] = []
  // A BOM may be dropped before splitting.
  let offset = value.startsWith('\uFEFF') && !texts[0]?.startsWith('\uFEFF') ? 1 : 0
  texts.forEach((text, index) => {
    if (!value.startsWith(text, offset)) {
      throw new Error(`the spy expects one \`fromMarkdown\` call a section, but this text is not the next part of the document: ${JSON.stringify(text)}`)
    }
    const next = texts[index + 1]
    const merged = next !== undefined && next.length > text.length && value.startsWith(next, offset)
    if (!merged) {
      sections.push(text)
      offset += text.length
    }
  })
  if (offset !== value.length) throw new Error(`sections cover ${offset} of ${value.length} characters`)
  return {tree, sections}
}

/** Path to the first difference between two trees, for failure messages. */
function firstDifference(actual: unknown, expected: unknown, where = 'root'): string | null {
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return isDeepStrictEqual(actual, expected) ? null : `${where}: ${inspect(actual)} (sectioned) vs ${inspect(expected)} (whole)`
  }
  for (const key of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
    const found = firstDifference((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${where}.${key}`)
    if (found) return found
  }
  return null
}

const defaultSizes = [1, 16, 64]

/**
 * Expect the sectioned tree to equal the whole tree for each option set (both
 * unless told) and every size; return the sections kept at the first size,
 * per option set (with one set, both fields hold its sections).
 */
function expectSame(
  value: string,
  sizes: readonly number[] = defaultSizes,
  sets: readonly OptionSet[] = optionSets
): {plain: string[]; withFrontmatter: string[]} {
  const kept: string[][] = []
  for (const [name, options] of sets) {
    const whole = fromMarkdown(value, options)
    sizes.forEach((size, index) => {
      const {tree, sections} = sectioned(value, options, size)
      // `toStrictEqual` is slow on large trees: compare first, and let it show the diff.
      if (!isDeepStrictEqual(tree, whole)) {
        expect(tree, `${name}, size ${size}: ${firstDifference(tree, whole)}\ndocument: ${JSON.stringify(value)}`).toStrictEqual(whole)
        expect.fail(`${name}, size ${size}: trees differ (isDeepStrictEqual)`)
      }
      if (index === 0) kept.push(sections)
    })
  }
  return {plain: kept[0] ?? [], withFrontmatter: kept.at(-1) ?? []}
}

/** First line of each section. */
function starts(sections: readonly string[]): string[] {
  return sections.map((section) => section.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)[0] as string)
}

/** LF lines to a document. */
const lines = (...parts: string[]): string => parts.join('\n')

// ---------------------------------------------------------------------------
// Part 1: documents that break naive splitters.

describe('parseInSections: fenced code', () => {
  it('keeps heading lines inside a column-0 ``` fence in the fence', () => {
    const doc = lines('intro', '# One', 'text', '```md', '# not a heading', '## nor this', '```', '# Two', 'text', '# Three', 'end', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['intro', '# One', '# Two', '# Three'])
  })

  it('keeps heading lines inside a column-0 ~~~ fence in the fence', () => {
    const doc = lines('# One', 'text', '~~~', '# in', '```', '# still in', '~~~', '# Two', 'text', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# One', '# Two'])
  })

  it('closes a fence with a longer closing sequence, not a shorter one', () => {
    const doc = lines('# A', '````', '# in', '```', '# still in', '``````', '# B', 'text', '~~~~', '# in', '~~~', '# in', '~~~~~~~', '# C', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# B', '# C'])
  })

  it('does not close a fence on a line with info text after the sequence', () => {
    const doc = lines('# A', '```', '# in', '``` js', '# still in', '```', '# B', '~~~', '# in', '~~~ x', '# still in', '~~~', '# C', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# B', '# C'])
  })

  it('closes fences with trailing spaces and tabs after the sequence', () => {
    const doc = lines('# A', '```', '# in', '```  \t', '# B', '~~~', '# in', '~~~ ', '# C', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# B', '# C'])
  })

  it('runs an unclosed fence to the end of the document', () => {
    const doc = lines('# A', 'text', '# B', '```', '# in', 'text', '## in', '~~~', '# in', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# B'])
    expectSame(lines('# A', 'text', '# B', '~~~~', '# in', '```', '# in', '~~~', '# in'))
  })

  it('takes a backtick "fence" whose info string holds a backtick for a paragraph', () => {
    const doc = lines('# A', '```not `a` fence', '# Heading', 'text', '```', '# Two', 'text', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# Heading'])
    expect(fromMarkdown(doc).children.map((node) => node.type)).toEqual(['heading', 'paragraph', 'heading', 'paragraph', 'code'])
  })

  it('takes a tilde fence whose info string holds a backtick for a fence', () => {
    const doc = lines('# A', '~~~ info `with` backtick', '# in', '~~~', '# B', 'text', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# B'])
  })

  it('handles fences opened inside list items, then headings at column 0', () => {
    expectSame(lines('# A', '- ```', '  code', '### x', 'text', '# y', 'text', ''))
    expectSame(lines('# A', '- ```', '### x', '```', '# y', '```', '# z', ''))
    expectSame(lines('# A', '1. ~~~', '   # in', '# out', '~~~', '# after', ''))
    expectSame(lines('# A', '- a', '  ```', '# out', '  ```', '# after', ''))
    const {plain} = expectSame(lines('# A', '- ```', '  # in', '  ```', '# B', 'text', ''))
    expect(starts(plain)).toEqual(['# A', '# B'])
  })

  it('handles fences indented 1 to 3 spaces', () => {
    expectSame(lines('# A', ' ```', '# in', '```', '# B', ''))
    expectSame(lines('# A', '  ~~~', '# in', '  ~~~', '# B', ''))
    expectSame(lines('# A', '   ```', '# in', '   ```', '# B', ''))
    // A closing sequence indented 4 spaces is content, not a closing fence.
    expectSame(lines('# A', '   ```', '# in', '    ```', '# still in', '```', '# B', ''))
    expectSame(lines('# A', ' ```', 'a', '    ```', '# in', 'b', '# in', ''))
    expectSame(lines('# A', ' ```', 'a', '\t```', '# in', 'b', '# in', ''))
    // An indented opener, a column-0 closer.
    expectSame(lines('# A', '  ```', '# in', '```', '# B', 'text', ''))
  })

  it('takes 4 spaces or a tab before ``` for indented code, not a fence', () => {
    const doc = lines('# A', '    ```', '# Heading', 'text', '', '\t```', '# Two', 'text', '', '    ```', '')
    expectSame(doc)
    expect(fromMarkdown(doc).children.map((node) => node.type)).toEqual(['heading', 'code', 'heading', 'paragraph', 'code', 'heading', 'paragraph', 'code'])
  })

  it('handles fences inside block quotes, then headings', () => {
    expectSame(lines('# A', '> ```', '# out of the quote', '> ```', '# B', ''))
    expectSame(lines('# A', '> ```', '> # in', '> ```', '# B', 'text', ''))
    expectSame(lines('# A', '>```', '# out', '```', '# in', '```', '# C', ''))
    expectSame(lines('# A', '> - ~~~', '# out', '~~~', '# in', ''))
  })

  it('handles fences of two backticks and tildes (not fences)', () => {
    const {plain} = expectSame(lines('# A', '``', '# B', '~~', '# C', ''))
    expect(starts(plain)).toEqual(['# A', '# B', '# C'])
  })
})

describe('parseInSections: HTML blocks', () => {
  it('keeps headings inside a multi-line <!-- comment --> in the comment', () => {
    const doc = lines('intro', '', '<!--', '# in comment', '', '## in', '-->', '# Out', 'text', '# Two', '')
    const {plain} = expectSame(doc)
    expect(starts(plain).slice(-2)).toEqual(['# Out', '# Two'])
    expect(starts(plain)).not.toContain('# in comment')
  })

  it('splits after a closed comment directly followed by a contract heading', () => {
    const doc = lines('# A', '', '<!-- lint disable -->', '### C-01: X', '', '**Verification:** auto', '<!-- lint enable -->', '# B', 'text', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '### C-01: X', '# B'])
  })

  it('handles comments closed on a later line with text around -->', () => {
    expectSame(lines('# A', '<!-- a', 'b --> c', '# B', ''))
    expectSame(lines('# A', '<!-- a', '# in', 'b --> c', '# B', ''))
    expectSame(lines('# A', '<!--', '# in', 'a -- > b', '# in', '', '# in', ''))
  })

  it('handles the empty comments <!--> and <!--->', () => {
    expectSame(lines('# A', '<!-->', '# B', 'text', '<!--->', '# C', ''))
    expectSame(lines('# A', '<!---->', '# B', ''))
  })

  it('continues a <div> block over a directly following # line', () => {
    const doc = lines('# A', '<div>', '# x', '</div>', '# y', '', '# z', 'text', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).not.toContain('# x')
    expect(starts(plain)).not.toContain('# y')
    expect(starts(plain)).toContain('# z')
    expect(fromMarkdown(doc).children.map((node) => node.type)).toEqual(['heading', 'html', 'heading', 'paragraph'])
  })

  it('ends a <div> block at a blank line before a heading', () => {
    const doc = lines('# A', '<div>', '', '# x', '</div>', '', '# y', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '# x', '# y'])
  })

  it('handles closing tags and every kind of type 6 tag', () => {
    expectSame(lines('# A', '</div>', '# x', '', '# y', ''))
    expectSame(lines('# A', '<table>', '<tr><td>', '# x', '</td></tr>', '</table>', '# y', '', '# z', ''))
    expectSame(lines('# A', '<details>', '# x', '', '<summary>', '# y', ''))
    expectSame(lines('# A', '<div class="x"', '# x', '', '# y', ''))
  })

  it('keeps # lines in <pre>, <script>, <style> and <textarea> blocks, blank lines or not', () => {
    for (const tag of ['pre', 'script', 'style', 'textarea']) {
      const doc = lines('# A', `<${tag}>`, '# a', '', '# b', '', '', `</${tag}>`, '# c', '', '# d', '')
      const {plain} = expectSame(doc)
      expect(starts(plain), tag).not.toContain('# a')
      expect(starts(plain), tag).not.toContain('# b')
      expect(starts(plain), tag).toContain('# d')
    }
  })

  it('runs an unclosed <pre> block over trailing blank lines to the end', () => {
    expectSame(lines('# A', '<pre>', '', '', '# x', '', '# y', ''))
    expectSame(lines('# A', '<!--', '', '', '# x', '', '# y', '', ''))
  })

  it('handles <?php ... ?>, <!DOCTYPE> and <![CDATA[ ... ]]> blocks', () => {
    expectSame(lines('# A', '<?php', '# comment', '', '# more', '?>', '# after', '', '# B', ''))
    expectSame(lines('# A', '<!DOCTYPE html', '# x', '', '# y', '>', '# z', ''))
    expectSame(lines('# A', '<![CDATA[', '# x', '', ']]>', '# y', '', '# z', ''))
  })

  it('handles type 7 blocks, which cannot interrupt a paragraph', () => {
    expectSame(lines('# A', '<custom-tag>', '# x', '', '# y', ''))
    expectSame(lines('# A', 'para', '<custom-tag>', '# x', '', '# y', ''))
    expectSame(lines('# A', '<a href="x">', '# x', '</a>', '', '# y', ''))
  })

  it('handles HTML in block quotes and list items followed by headings', () => {
    expectSame(lines('# A', '> <div>', '# x', '', '# y', ''))
    expectSame(lines('# A', '- <!--', '# x', '-->', '# y', ''))
    expectSame(lines('# A', '> <pre>', '>', '# x', '</pre>', '# y', ''))
  })
})

describe('parseInSections: frontmatter', () => {
  it('ignores YAML comments that look like headings', () => {
    const doc = lines('---', '# comment', 'title: x', '## another', '---', '# Title', 'text', '# Two', 'text', '')
    const {plain, withFrontmatter: fm} = expectSame(doc)
    expect(starts(fm)).toEqual(['---', '# Title', '# Two'])
    expect(starts(plain)).toEqual(['---', '# Title', '# Two'])
  })

  it('takes +++ for a paragraph when only YAML frontmatter is on', () => {
    const doc = lines('+++', '# x', 'title = 1', '+++', '# Title', 'text', '# Two', '')
    expectSame(doc)
    expect(fromMarkdown(doc, withFrontmatter).children[0]?.type).not.toBe('toml')
  })

  it('handles unclosed frontmatter', () => {
    expectSame(lines('---', 'title: x', '# Heading', 'text', '# Two', 'text', ''))
    expectSame(lines('---', '# Heading', '```', '# in', '```', '# Two', ''))
    // micromark's failed attempt at frontmatter leaves tabs after it miscounted:
    // `-\tz` is a paragraph in the whole document, a list in a section of its own.
    expectSame(lines('---', '# A', '-\tz', '# B', '-\tz', ''))
    expect(fromMarkdown(lines('---', '# A', '-\tz', ''), withFrontmatter).children.at(-1)?.type).toBe('paragraph')
  })

  it('handles empty frontmatter, and fences of the wrong length', () => {
    expectSame(lines('---', '---', '# A', 'text', '# B', ''))
    expectSame(lines('----', '# a', '----', '# b', ''))
    expectSame(lines('---', 'a: 1', '----', '# b', '---', '# c', ''))
    expectSame(lines('--', '# a', '--', '# b', ''))
  })

  it('handles frontmatter fences with trailing spaces and tabs', () => {
    const doc = lines('--- ', 'a: 1', '# c', '---\t ', '# b', 'text', '# c', '')
    const {withFrontmatter: fm} = expectSame(doc)
    expect(fromMarkdown(doc, withFrontmatter).children[0]?.type).toBe('yaml')
    expect(starts(fm)).toEqual(['--- ', '# b', '# c'])
  })

  it('handles --- that is not on the first line', () => {
    expectSame(lines('', '---', '# a', '---', '# b', ''))
    expectSame(lines('text', '---', '# a', '---', '# b', ''))
  })

  it('handles a fence opened in frontmatter that closes after it', () => {
    expectSame(lines('---', 'a: |', '  ```', '---', '# b', '```', '# c', ''))
    expectSame(lines('---', '```', '---', '# b', '```', '# c', ''))
  })

  // micromark closes frontmatter only on `---` followed by spaces and tabs, not
  // on every line that `trimEnd()` makes `---`.
  it('does not end frontmatter at --- followed by other white space (NBSP, form feed, VT, BOM, ideographic space)', () => {
    for (const space of ['\u00a0', '\f', '\v', '\ufeff', '\u3000']) {
      expectSame(lines('---', 'a: 1', '---' + space, '# b', 'c: 2', '---', '# d', 'text', ''))
    }
  })

  // micromark skips a leading BOM, so whole-document offsets are one less than
  // string indices: sections shifted by string indices would be one off.
  it('handles a BOM before frontmatter', () => {
    expectSame('\uFEFF' + lines('---', '# comment', 'title: x', '---', '# Title', 'text', '# Two', 'text', ''))
  })

  it('handles a BOM before a document without frontmatter', () => {
    expectSame('\uFEFF' + lines('# A', 'text', '# B', 'text', ''))
  })

  // With offsets one off, the source of a fence would be sliced one character
  // early and not be recognised as a fence, and the text after an HTML block
  // would start one character early.
  it('handles a BOM before an unclosed fence or HTML block', () => {
    expectSame('\uFEFF' + lines('```', 'a', '# in', 'b', '# in', ''))
    expectSame('\uFEFF' + lines('<div> ', '# in', '', '# out', ''))
    expectSame('\uFEFF' + lines('<div>', '', '# out', 'text', ''))
    expectSame('\uFEFF' + lines('<div>', '# in', '', '# out', '').replace(/\n/g, '\r\n'))
  })
})

describe('parseInSections: blocks around headings', () => {
  it('lets a heading interrupt a paragraph', () => {
    const {plain} = expectSame(lines('a paragraph', '# A', 'another', 'line', '## B', 'text'))
    expect(starts(plain)).toEqual(['a paragraph', '# A', '## B'])
  })

  it('handles setext headings', () => {
    expectSame(lines('Title', '===', '# A', 'Sub', '---', '# B', 'Title', '=', '# C', '===', '# D', '---', ''))
  })

  it('keeps the spread of lists before headings (tight and loose)', () => {
    expectSame(lines('# A', '- a', '- b', '', '', '# B', '- c', '', '- d', '', '# C', '1. x', '', '   y', '# D', '- a', '  - b', '', '', '', '# E', ''))
    expectSame(lines('# A', '- a', '', '# B', '* b', '*', '', '# C', '+ c', '', '  ', '# D', ''))
  })

  it('handles block quotes followed by headings', () => {
    expectSame(lines('# A', '> a', '> b', '# B', '> c', '', '# C', '> - x', '>', '# D', '>', '# E', ''))
  })

  it('handles lazy continuation lines before headings', () => {
    expectSame(lines('# A', '> a', 'lazy', '# B', '- item', 'lazy', '# C', '> - x', 'lazy', '# D', ''))
  })

  it('handles indented code, thematic breaks and tables before headings', () => {
    expectSame(lines('# A', '    code', '', '    more', '# B', '***', '# C', '| a | b |', '|---|---|', '# D', '- - -', '# E', ''))
  })

  it('splits only at ATX headings at column 0 (#hashtag, 7 #, indented, tab, empty)', () => {
    const doc = lines('# A', '#hashtag', 'text', '####### seven', 'text', ' ## indented heading', 'text', '#\tTab heading', 'text', '#', 'text', '\\# escaped', '# B #', '')
    const {plain} = expectSame(doc)
    expect(starts(plain)).toEqual(['# A', '#\tTab heading', '#', '# B #'])
    const types = fromMarkdown(doc).children.map((node) => node.type)
    expect(types).toEqual(['heading', 'paragraph', 'heading', 'paragraph', 'heading', 'paragraph', 'heading', 'paragraph', 'heading'])
  })
})

const richDocument = lines(
  '# Contracts',
  '',
  'Intro with `code`\tand a tab.',
  '## S-01: Slice',
  '',
  '### C-01: Card',
  '',
  '**Verification:** auto',
  '**Acceptance Criteria:**',
  '- The card shows -- verified by: `npm test`',
  '',
  '```',
  '# not a heading',
  '```',
  '<!-- lint disable -->',
  '### C-02: Badge',
  '> quote',
  'lazy',
  '### C-03: List',
  '1. a',
  '',
  '   b',
  '',
  '\tindented',
  '# End',
  ''
)

describe('parseInSections: line endings and white space', () => {
  it('handles CRLF line endings everywhere', () => {
    const {plain} = expectSame(richDocument.replace(/\n/g, '\r\n'))
    expect(plain.length).toBeGreaterThan(4)
  })

  it('handles lone CR line endings everywhere', () => {
    const {plain} = expectSame(richDocument.replace(/\n/g, '\r'))
    expect(plain.length).toBeGreaterThan(4)
  })

  it('handles mixed line endings', () => {
    let index = 0
    const endings = ['\n', '\r\n', '\r', '\r\n', '\n', '\r']
    const {plain} = expectSame(richDocument.replace(/\n/g, () => endings[index++ % endings.length] as string))
    expect(plain.length).toBeGreaterThan(4)
  })

  // An HTML block of type 6 or 7 that ends a section ends before the section's
  // last line ending; a search for a blank line after it with
  // /(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)/ matches that one CRLF (as CR, then
  // LF) and takes the block for closed.
  it('continues <div>, </div> and type 7 HTML blocks over a directly following heading with CRLF line endings', () => {
    expectSame(lines('# A', '<div>', '# x', '', '# y', '').replace(/\n/g, '\r\n'))
    expectSame(lines('# A', '</div>', '# x', '', '# y', '').replace(/\n/g, '\r\n'))
    expectSame(lines('# A', '<custom-tag>', '# x', '', '# y', '').replace(/\n/g, '\r\n'))
  })

  it('continues comments, <pre> and <?php blocks over a directly following heading with CRLF line endings', () => {
    expectSame(lines('# A', '<!--', '# x', '-->', '# y', '').replace(/\n/g, '\r\n'))
    expectSame(lines('# A', '<pre>', '# x', '</pre>', '# y', '').replace(/\n/g, '\r\n'))
    expectSame(lines('# A', '<?php', '# x', '?>', '# y', '').replace(/\n/g, '\r\n'))
    expectSame(lines('# A', '<!-- lint disable -->', '# x', '', '# y', '').replace(/\n/g, '\r\n'))
  })

  it('handles HTML blocks followed by headings with lone CR line endings', () => {
    expectSame(lines('# A', '<div>', '# x', '', '# y', '').replace(/\n/g, '\r'))
    expectSame(lines('# A', '<!--', '# x', '-->', '# y', '').replace(/\n/g, '\r'))
  })

  it('handles a document with no final line ending', () => {
    const {plain} = expectSame(lines('# A', 'text', '# B', 'last'))
    expect(starts(plain)).toEqual(['# A', '# B'])
    expectSame(lines('# A', 'text', '# B'))
    expectSame(lines('# A', 'text', '```', '# in'))
  })

  it('handles trailing blank lines and white space', () => {
    expectSame(lines('# A', 'text', '# B', '', '', '   ', '\t', ''))
    expectSame(lines('# A', 'text', '# B', '- a', '', '', ''))
  })

  it('handles tabs in headings, lists and code', () => {
    expectSame(lines('#\tA\t#', '\t- x', '-\ty', '\t\tcode', '#\tB', ' \tz', '>\tq', '# C', ''))
  })

  it('handles NUL and other odd characters', () => {
    expectSame(lines('# A\u0000', '\u0000', '# B\u2028x', '\u000b', '# C', '\u{1F600}', ''))
  })
})

describe('parseInSections: whole-document parses', () => {
  it('parses documents with link definitions whole', () => {
    const doc = lines('# A', 'see [a] and [b][] and [c]', '# B', 'text', '# C', '[a]: /url', '[b]: /b "title"', '')
    const {plain, withFrontmatter: fm} = expectSame(doc)
    expect(plain).toEqual([doc])
    expect(fm).toEqual([doc])
    expect(JSON.stringify(fromMarkdown(doc))).toContain('linkReference')
  })

  it('parses documents with ]: anywhere whole, even in code', () => {
    const doc = lines('# A', 'text', '```', 'x]: y', '```', '# B', 'text', '')
    expect(expectSame(doc).plain).toEqual([doc])
    const footnote = lines('# A', 'text[^1]', '# B', '[^1]: note', '')
    expect(expectSame(footnote).plain).toEqual([footnote])
  })

  it('parses documents shorter than twice the section size whole', () => {
    const doc = lines('# A', 'text', '# B', 'text', '# C', 'text', '')
    expect(doc.length).toBeLessThan(64)
    expect(sectioned(doc, undefined, 64).sections).toEqual([doc])
    expect(sectioned(doc, undefined, Math.ceil(doc.length / 2)).sections).toEqual([doc])
    expect(sectioned(doc, undefined, Math.floor(doc.length / 2)).sections.length).toBeGreaterThan(1)
    expect(sectioned(doc, undefined, defaultSectionSize).sections).toEqual([doc])
  })

  it('parses documents without a heading at column 0 whole', () => {
    const doc = lines('text', ' # A', '- # B', '> # C', '')
    expect(expectSame(doc).plain).toEqual([doc])
  })

  it('keeps sections at least `size` characters apart', () => {
    const doc = Array.from({length: 40}, (_, index) => `# H${index}\ntext text text\n`).join('')
    for (const size of [16, 64, 256]) {
      const {tree, sections} = sectioned(doc, undefined, size)
      expect(tree).toStrictEqual(fromMarkdown(doc))
      expect(sections.length).toBeGreaterThan(1)
      for (const section of sections.slice(0, -1)) expect(section.length).toBeGreaterThanOrEqual(size)
    }
  })

  it('parses the empty document and a lone heading', () => {
    expectSame('', [1])
    expectSame('#', [1])
    expectSame('# A\n', [1])
    expectSame('\n\n# A\n\n', [1])
  })
})

describe('parseInSections: large contract documents', () => {
  // A whole parse of one of these takes 0.3 s and more: sizes and option sets are few.
  const fixture = readFileSync(path.join(root, 'test/fixtures/large-contracts.md'), 'utf8')

  it('gives the whole tree for test/fixtures/large-contracts.md', () => {
    expect(fixture.length).toBeGreaterThan(8 * defaultSectionSize)
    const {withFrontmatter: fm} = expectSame(fixture, [64, defaultSectionSize], [frontmatterSet])
    expect(fm.length).toBeGreaterThan(100)
    expect(starts(fm)[0]).toBe('---')
  })

  it('gives the whole tree for a part of large-contracts.md with CRLF and with CR line endings', () => {
    // The first 20 kB or so, up to a heading.
    const part = fixture.slice(0, fixture.indexOf('\n## ', 20_000) + 1)
    expect(part.length).toBeGreaterThan(20_000)
    const {withFrontmatter: crlf} = expectSame(part.replace(/\n/g, '\r\n'), [1024], [frontmatterSet])
    expect(crlf.length).toBeGreaterThan(8)
    const {plain: cr} = expectSame(part.replace(/\n/g, '\r'), [1024], [plainSet])
    expect(cr.length).toBeGreaterThan(8)
  })

  it('gives the whole tree for the benchmark corpus', async () => {
    const {writeCorpus} = (await import(path.join(root, 'bench/corpus.mjs'))) as {
      writeCorpus: (dir: string, options: {files: number; largeContracts: number}) => {paths: string[]; bytes: number}
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parse-in-sections-'))
    try {
      const {paths} = writeCorpus(dir, {files: 1, largeContracts: 300})
      const large = readFileSync(path.join(dir, 'CONTRACTS.md'), 'utf8')
      expect(large.length).toBeGreaterThan(16 * defaultSectionSize)
      const {plain} = expectSame(large, [defaultSectionSize, 64], [plainSet])
      expect(plain.length).toBeGreaterThan(16)
      // The small file of the corpus has frontmatter.
      for (const file of paths) if (file !== path.join(dir, 'CONTRACTS.md')) expectSame(readFileSync(file, 'utf8'), [1, 64])
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

// ---------------------------------------------------------------------------
// Part 2: properties.

const pool = {
  heading: ['# A', '## B', '### C-01: X', '#', '#\tTab', '# H #', '#  spaced', '###### six', '# `code` *em*'],
  notHeading: ['#hashtag', '####### seven', ' ## indented', '   # three', '    # code', '\\# escaped', '#\u00a0nbsp'],
  fence: [
    '```', '````', '~~~', '~~~~', '```js', '~~~ yaml', '``` a`b', '~~~ a`b', '```   ', '``` x', ' ```', '  ~~~', '   ```',
    '    ```', '\t```', '- ```', '> ```', '1. ~~~', '  - ```', '>```', '``', '`````'
  ],
  list: ['- a', '* b', '+ c', '1. d', '2) e', '-', '  - nested', '  continued', '   more', '10. ten', '- [ ] task'],
  quote: ['> q', '>', '> # quoted', '>> deep', '> - item', '> <div>', '> <!--', '> ```'],
  html: [
    '<!--', '-->', '<!-- c -->', '<!-- lint disable -->', '<!-->', 'a --> b', '<div>', '</div>', '<div class="x">', '<pre>', '</pre>',
    '<script>', '</script>', '<style>', '</style>', '<textarea>', '</textarea>', '<?php', '?>', '<!DOCTYPE html>', '<!X', '>',
    '<![CDATA[', ']]>', '<custom-tag>', '</custom-tag>', '<a href="x">', '<table>', '</table>', '<details>', '<span>inline</span>'
  ],
  blank: ['', '', '', ' ', '\t', '   '],
  text: ['text', 'more *em* text', 'a  ', 'a\\', '`code`', 'word --> arrow', 'x ``` y', '*', '[a]', 'b]'],
  breakLike: ['===', '---', '- - -', '***', '___', '+++', '--- ', '=', '-'],
  tab: ['\tcode', '\t- x', ' \ty', '\t# tab heading', '-\tz']
}

const line: Arbitrary<string> = fc.oneof(
  {weight: 5, arbitrary: fc.constantFrom(...pool.heading)},
  {weight: 1, arbitrary: fc.constantFrom(...pool.notHeading)},
  {weight: 1, arbitrary: fc.constantFrom(...pool.fence)},
  {weight: 2, arbitrary: fc.constantFrom(...pool.list)},
  {weight: 1, arbitrary: fc.constantFrom(...pool.quote)},
  {weight: 2, arbitrary: fc.constantFrom(...pool.html)},
  {weight: 4, arbitrary: fc.constantFrom(...pool.blank)},
  {weight: 3, arbitrary: fc.constantFrom(...pool.text)},
  {weight: 1, arbitrary: fc.constantFrom(...pool.breakLike)},
  {weight: 1, arbitrary: fc.constantFrom(...pool.tab)}
)

/** A fenced code block, closed (by a sequence at least as long, maybe indented, maybe with trailing spaces) or not. */
const fencedBlock: Arbitrary<string[]> = fc
  .tuple(
    fc.constantFrom('', '', '', ' ', '   '),
    fc.constantFrom('```', '~~~', '````', '~~~~'),
    fc.constantFrom('', '', 'js', ' md', '\tx'),
    fc.array(line, {maxLength: 4}),
    fc.constantFrom('', '', '', '`', '~', ' ', '  ', '\t'),
    fc.constantFrom('', '', ' ', '  ', '    '),
    fc.boolean()
  )
  .map(([indent, marker, info, content, extra, closeIndent, closed]) => {
    // `extra`: one more marker character (the same or not), or trailing white space.
    const close = closeIndent + marker + extra
    return [indent + marker + info, ...content, ...(closed ? [close] : [])]
  })

/** An HTML block of each kind, with its end condition or not. */
const htmlBlock: Arbitrary<string[]> = fc
  .tuple(
    fc.constantFrom(
      ['<div>', ''], ['</div>', ''], ['<details>', ''], ['<custom-tag>', ''], ['<!--', '-->'], ['<!-- a', 'b --> c'], ['<pre>', '</pre>'],
      ['<script>', '</script>'], ['<?php', '?>'], ['<!DOCTYPE html', '>'], ['<![CDATA[', ']]>'], ['<!-- lint disable -->', '']
    ),
    fc.array(line, {maxLength: 3}),
    fc.boolean()
  )
  .map(([[open, close], content, closed]) => [open, ...content, ...(closed ? [close] : [])])

/** Lines, alone or in blocks. */
const chunk: Arbitrary<string[]> = fc.oneof(
  {weight: 8, arbitrary: line.map((one) => [one])},
  {weight: 3, arbitrary: fc.constantFrom(...pool.heading).map((one) => [one])},
  {weight: 2, arbitrary: fencedBlock},
  {weight: 1, arbitrary: htmlBlock}
)

/**
 * Frontmatter, YAML-looking or TOML-looking, as lines: mostly closed by its
 * own fence (maybe with trailing spaces or tabs), else by one of `odd`, else
 * not closed.
 */
function frontmatterLines(odd: readonly string[]): Arbitrary<string[]> {
  return fc
    .tuple(
      fc.constantFrom('---', '---', '+++', '--- '),
      fc.array(fc.oneof(fc.constantFrom('title: x', '# comment', '## C-01: X', 'a: |', '  ```'), line), {maxLength: 5}),
      fc.oneof(
        {weight: 6, arbitrary: fc.constantFrom('', '', ' ', '\t ').map((space) => ({own: space}))},
        {weight: 2, arbitrary: fc.constantFrom(...odd).map((close) => ({close}))},
        {weight: 1, arbitrary: fc.constant(null)}
      )
    )
    .map(([open, content, close]) => [
      open,
      ...content,
      ...(close === null ? [] : ['own' in close ? open.trim() + close.own : close.close])
    ])
}

const definitionLine = fc.constantFrom('[a]: /url', '[^1]: note', '[A]:\t<x>')

interface DocumentOptions {
  endings: readonly string[]
  bom: boolean
  closers: readonly string[]
}

/** Documents of tricky lines, joined by `endings`, with a BOM or not, maybe with frontmatter and a definition. */
function documentOf({endings, bom, closers}: DocumentOptions): Arbitrary<string> {
  return fc
    .tuple(
      fc.constant(bom),
      // `freq: n` gives `null` once in n.
      fc.option(frontmatterLines(closers), {nil: null, freq: 2}),
      fc.array(chunk, {minLength: 1, maxLength: 16}).map((chunks) => chunks.flat()),
      // A definition (the document is then parsed whole) in one document of ten.
      fc.oneof({weight: 9, arbitrary: fc.constant(null)}, {weight: 1, arbitrary: fc.tuple(definitionLine, fc.nat())}),
      fc.array(fc.constantFrom(...endings), {minLength: 1, maxLength: 6}),
      fc.constantFrom(true, true, false)
    )
    .map(([withBom, front, body, definition, joints, finalEnding]) => {
      const all = [...(front ?? []), ...body]
      if (definition) all.splice(definition[1] % (all.length + 1), 0, definition[0])
      const value = all.reduce((out, part, index) => (index === 0 ? part : out + (joints[index % joints.length] as string) + part), '')
      return (withBom ? '\uFEFF' : '') + value + (finalEnding ? (joints[0] as string) : '')
    })
}

/** Documents the properties saw, and how many of them were split (no options, first size). */
const seen = {documents: 0, split: 0}

/** The property: for sizes 1, 8 and 64, with and without frontmatter, sectioned equals whole. */
function sameTree(value: string, sizes: readonly number[] = [1, 8, 64]): void {
  for (const [name, options] of optionSets) {
    const whole = fromMarkdown(value, options)
    sizes.forEach((size, index) => {
      const counted = index === 0 && options === undefined
      let tree: Root
      if (counted) {
        const run = sectioned(value, options, size)
        tree = run.tree
        seen.documents++
        if (run.sections.length > 1) seen.split++
      } else {
        tree = parseInSections(value, options, size)
      }
      if (!isDeepStrictEqual(tree, whole)) {
        throw new Error(`sectioned tree differs from whole tree (${name}, size ${size}): ${firstDifference(tree, whole)}\ndocument: ${JSON.stringify(value)}`)
      }
    })
  }
}

/** Run a property, and expect at least `share` of its documents to have been split. */
function assertSplitting(property: fc.IProperty<[string]>, parameters: fc.Parameters<[string]>, share: number): void {
  seen.documents = 0
  seen.split = 0
  fc.assert(property, parameters)
  expect(seen.split / seen.documents, `${seen.split} of ${seen.documents} documents split`).toBeGreaterThan(share)
}

const lf = ['\n']
const anyEndings = ['\n', '\r\n', '\r']
const plainClosers = ['---', '+++', '----', ' ---', '--', '--- x']

describe('parseInSections: properties', () => {
  it('equals the whole parse on LF documents of tricky lines', () => {
    assertSplitting(fc.property(documentOf({endings: lf, bom: false, closers: plainClosers}), (value) => sameTree(value)), settings(300, 0), 0.2)
  }, propertyTimeout)

  it('equals the whole parse with CRLF, CR and mixed line endings', () => {
    const crlf = documentOf({endings: ['\r\n'], bom: false, closers: plainClosers})
    const cr = documentOf({endings: ['\r'], bom: false, closers: plainClosers})
    const mixed = documentOf({endings: anyEndings, bom: false, closers: plainClosers})
    assertSplitting(fc.property(fc.oneof(crlf, cr, mixed), (value) => sameTree(value)), settings(200, 1), 0.2)
  }, propertyTimeout)

  // Documents with a BOM may well be parsed whole: no share of them need be split.
  it('equals the whole parse with a BOM in front', () => {
    fc.assert(fc.property(documentOf({endings: lf, bom: true, closers: plainClosers}), (value) => sameTree(value)), settings(100, 2))
  }, propertyTimeout)

  it('equals the whole parse when frontmatter fences end in odd white space', () => {
    const closers = ['---\u00a0', '---\f', '---\v', '---\ufeff', '--- \u3000', '+++\u00a0']
    assertSplitting(fc.property(documentOf({endings: lf, bom: false, closers}), (value) => sameTree(value)), settings(100, 3), 0.2)
  }, propertyTimeout)

  it('equals the whole parse on generated contract documents with noise', () => {
    const documents = fc.oneof(withLineEndings(contractDocument), withLineEndings(noisyDocument))
    assertSplitting(fc.property(documents, (value) => sameTree(value, [1, 64])), settings(30, 4), 0.4)
  }, propertyTimeout)
})
