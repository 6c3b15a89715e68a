/**
 * The parser plugin of `tiers lint`: the same tree as remark-parse in every
 * case, every file parsed, and the cases where it reads a file in sections
 * (no syntax but frontmatter).
 */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {frontmatterFromMarkdown} from 'mdast-util-frontmatter'
import {directive} from 'micromark-extension-directive'
import {frontmatter} from 'micromark-extension-frontmatter'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import presetRecommended from 'remark-preset-lint-recommended'
import preset from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import type {Processor} from 'unified'
import {describe, expect, it} from 'vitest'
import {remarkParseFast, sectionSafe} from '../packages/cli/lib/lint/fast-parse.js'

function parseWith(processor: Processor<Root>, value: string): Root {
  return processor.parse(value) as Root
}

const contractsOnly = () => unified().use(remarkParse).use(preset).use(remarkParseFast) as unknown as Processor<Root>
const withRecommended = () => unified().use(remarkParse).use(presetRecommended).use(preset).use(remarkParseFast) as unknown as Processor<Root>
const yamlOptions = {extensions: [frontmatter()], mdastExtensions: [frontmatterFromMarkdown()]}

describe('remarkParseFast', () => {
  it('parses a file without a contract heading in sight: a guess could be fooled by an unclosed link', () => {
    for (const text of ['# Readme\n\nSome prose.\n', '', 'See [the doc](https://x.y/d for layout.\n\n### C-02: Grid\n\n**Verification:** bogus\n', 'Grid cells are grid[row](\n\n### C-02: Grid\n\n**Verification:** verify\n']) {
      expect(parseWith(contractsOnly(), text), JSON.stringify(text)).toEqual(fromMarkdown(text, yamlOptions))
    }
  })

  it('finds contracts whose ids or labels are written with markup', () => {
    for (const text of ['# _C-01_: Badge\n\n**Verification:** bogus\n', '# **C**-01: Badge\n', '# C\\-01: Badge\n', '# Contr**a**ct: Badge\n', '# [C](x)-01: Badge\n']) {
      const tree = parseWith(contractsOnly(), text)
      expect(tree.children.length, JSON.stringify(text)).toBeGreaterThan(0)
      expect(tree, JSON.stringify(text)).toEqual(fromMarkdown(text, yamlOptions))
    }
  })

  it('leaves frontmatter of other types, and tree extensions, to remark-parse', () => {
    const text = '---\ntitle: x\n---\n\n### C-01: Cart\n'
    const custom = [{type: 'custom', marker: '-'}] as const
    const processor = unified().use(remarkParse).use(remarkFrontmatter, [...custom]).use(remarkParseFast) as unknown as Processor<Root>
    const tree = parseWith(processor, text)
    expect(tree.children[0]?.type).toBe('custom')
    expect(tree).toEqual(fromMarkdown(text, {extensions: [frontmatter([...custom])], mdastExtensions: [frontmatterFromMarkdown([...custom])]}))
    // A tree extension must see what remark-parse gives it: here one that marks the root.
    const marking = {transforms: [(root: Root) => void (root.data = {marked: true} as Root['data'])]}
    const withExtension = unified().use(remarkParse).use(remarkFrontmatter).use(remarkParseFast).data('fromMarkdownExtensions', [frontmatterFromMarkdown(), marking]) as unknown as Processor<Root>
    expect(parseWith(withExtension, '### C-01: Cart\n\n**Verification:** auto\n').data).toEqual({marked: true})
  })

  it('parses every file when other rules run', () => {
    const text = '# Readme\n\nSome *prose*.\n'
    expect(parseWith(withRecommended(), text)).toEqual(fromMarkdown(text, yamlOptions))
  })

  it('gives remark-parse’s tree for contracts, in and outside the subset it reads itself', () => {
    const documents = [
      '---\ntitle: x\n---\n\n### C-01: Cart\n\n**Verification:** auto\n**Acceptance Criteria:**\n- Total shows -- verified by: `npm test`\n',
      '### C-02: Table\n\n| a | b |\n|---|---|\n\n> **Verification:** verify\n\nSetext\n===\n',
      '### C-03: CRLF\r\n\r\n**Verification:** auto\r\n'
    ]
    for (const text of documents) expect(parseWith(contractsOnly(), text), JSON.stringify(text)).toEqual(fromMarkdown(text, yamlOptions))
  })

  it('reads documents in sections only when every syntax extension is frontmatter', () => {
    expect(sectionSafe([])).toBe(true)
    expect(sectionSafe([frontmatter()])).toBe(true)
    expect(sectionSafe([frontmatter(['yaml', 'toml'])])).toBe(true)
    expect(sectionSafe([frontmatter(), directive()])).toBe(false)
    // Container directives hold `#` lines: one parse, so they stay inside.
    const text = ':::note\n# C-01: Inside\n:::\n\n'.repeat(3000)
    const processor = unified().use(remarkParse).use(remarkFrontmatter).use(remarkParseFast).data('micromarkExtensions', [frontmatter(), directive()]) as unknown as Processor<Root>
    expect(parseWith(processor, text)).toEqual(fromMarkdown(text, {extensions: [frontmatter(), directive()], mdastExtensions: [frontmatterFromMarkdown()]}))
  })

  it('does not read TOML frontmatter with the YAML-only subset parser', () => {
    const text = '+++\ntitle = "x"\n+++\n\n### C-01: Cart\n'
    const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkParseFast) as unknown as Processor<Root>
    const options = {extensions: [frontmatter(['yaml', 'toml'])], mdastExtensions: [frontmatterFromMarkdown(['yaml', 'toml'])]}
    const tree = parseWith(processor, text)
    expect(tree).toEqual(fromMarkdown(text, options))
    expect(tree.children[0]?.type).toBe('toml')
  })
})
