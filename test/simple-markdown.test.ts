/**
 * `parseSimpleMarkdown` reads a narrow subset of markdown fast. Whenever it
 * gives a tree, that tree must be deeply identical to what `fromMarkdown`
 * gives (every node, key, value and position, root included), with the
 * frontmatter extension when `frontmatter` is set and with no options when it
 * is not. Outside the subset it must give `undefined`: that is only slower,
 * a different tree is a bug.
 *
 * Part 1: documents it must accept (the benchmark corpus and contracts like
 * it), and documents at the edges of the subset, which it must refuse or get
 * right. Part 2: fast-check properties over documents assembled from line
 * shapes, over the fuzz arbitraries and over random strings (fixed seeds;
 * `FUZZ_SCALE=10` runs ten times as many cases, `FUZZ_SEED` changes the
 * seeds), and a check that the in-subset generator is accepted often enough
 * for the properties not to pass by refusing everything.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {isDeepStrictEqual} from 'node:util'
import fc from 'fast-check'
import type {Arbitrary} from 'fast-check'
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {Options} from 'mdast-util-from-markdown'
import {frontmatterFromMarkdown} from 'mdast-util-frontmatter'
import {frontmatter as frontmatterSyntax} from 'micromark-extension-frontmatter'
import {describe, expect, it} from 'vitest'
import {parseSimpleMarkdown} from '../packages/cli/lib/lint/simple-markdown.js'
import {contractDocument, contractishLines, noisyDocument, randomString, withLineEndings} from './fuzz/arbitraries.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const baseSeed = process.env.FUZZ_SEED === undefined ? 11 : Number(process.env.FUZZ_SEED)
const settings = (count: number, seedOffset: number) => ({seed: baseSeed + seedOffset, numRuns: Math.max(1, Math.round(count * scale))})

// ---------------------------------------------------------------------------
// Comparing with micromark.

const withFrontmatter: Options = {extensions: [frontmatterSyntax()], mdastExtensions: [frontmatterFromMarkdown()]}

/** What micromark gives: the tree `parseSimpleMarkdown` must give when it gives one. */
function reference(document: string, frontmatter: boolean): Root {
  return fromMarkdown(document, frontmatter ? withFrontmatter : {})
}

interface Difference {
  at: string
  simple: unknown
  micromark: unknown
}

/** A node without its children's subtrees: their types only, to keep a report short. */
function summary(node: unknown): unknown {
  if (node === null || typeof node !== 'object' || !('children' in node) || !Array.isArray(node.children)) return node
  return {...node, children: (node.children as Array<{type?: unknown}>).map((child) => `<${String(child?.type)}>`)}
}

/** The first (depth first) node where two trees differ, with the path to it. */
function firstDifference(simple: unknown, micromark: unknown, at = 'root'): Difference | undefined {
  if (isDeepStrictEqual(simple, micromark)) return undefined
  const isParent = (node: unknown): node is {children: unknown[]} =>
    node !== null && typeof node === 'object' && 'children' in node && Array.isArray(node.children)
  if (isParent(simple) && isParent(micromark)) {
    const {children: simpleChildren, ...simpleRest} = simple
    const {children: micromarkChildren, ...micromarkRest} = micromark
    if (isDeepStrictEqual(simpleRest, micromarkRest)) {
      const length = Math.max(simpleChildren.length, micromarkChildren.length)
      for (let index = 0; index < length; index++) {
        const difference = firstDifference(simpleChildren[index], micromarkChildren[index], `${at}.children[${index}]`)
        if (difference) return difference
      }
    }
  }
  return {at, simple: summary(simple), micromark: summary(micromark)}
}

function report(document: string, frontmatter: boolean, difference: Difference): string {
  return [
    `parseSimpleMarkdown gave a different tree (frontmatter: ${frontmatter})`,
    `document: ${JSON.stringify(document)}`,
    `first difference at ${difference.at}`,
    `  simple:    ${JSON.stringify(difference.simple)}`,
    `  micromark: ${JSON.stringify(difference.micromark)}`
  ].join('\n')
}

/** Throws (with the document and the first differing node) when the tree differs from micromark's; gives the tree or `undefined`. */
function sameOrRefused(document: string, frontmatter: boolean): Root | undefined {
  const tree = parseSimpleMarkdown(document, frontmatter)
  if (tree === undefined) return undefined
  const difference = firstDifference(tree, reference(document, frontmatter))
  if (difference) throw new Error(report(document, frontmatter, difference))
  return tree
}

/** `parseSimpleMarkdown` refuses `document` or gives micromark's tree; with both settings unless one is given. */
function expectSameOrRefused(document: string, frontmatter?: boolean): void {
  for (const setting of frontmatter === undefined ? [false, true] : [frontmatter]) sameOrRefused(document, setting)
}

/** `parseSimpleMarkdown` accepts `document` and gives micromark's tree. */
function expectAccepted(document: string, frontmatter: boolean): void {
  const tree = sameOrRefused(document, frontmatter)
  expect(tree, `refused (frontmatter: ${frontmatter}): ${JSON.stringify(document)}`).toBeDefined()
}

// ---------------------------------------------------------------------------
// Part 1: examples.

describe('parseSimpleMarkdown: documents it must accept', () => {
  const boldContract = [
    '### C-1: Campaign status',
    '',
    '**Boundary:** Campaign component -> rendered badge',
    '**Slice:** S-0001',
    '**Verification:** auto',
    '**Acceptance Criteria:**',
    '- The badge shows its status (1) -- verified by: `npm test -- badge`',
    '- The card shows its total (2) -- verified by: `npm test -- card`',
    '',
    '**Steps:**',
    '1. Open /campaign/1',
    ''
  ].join('\n')
  const fencedContract = [
    '### C-2: Spend grid',
    '',
    '```',
    'Contract: Spend grid',
    'Slice: S-0001',
    'Verification: verify',
    'Acceptance Criteria:',
    '  - The grid shows its header (1) -- verified by: `npm test -- grid`',
    '  - The grid works as expected',
    '```',
    ''
  ].join('\n')
  const goContract = [
    '### C-3: Export',
    '',
    '```go',
    '// Contract: Export',
    '// Slice: S-0001',
    '// Verification: auto',
    '```',
    '',
    'Some prose about the contract, with `code` and a [link](https://example.com).',
    ''
  ].join('\n')
  const frontmatterBlock = '---\ntitle: Slice 1\nslice: S-0001\nowner: team-0\n---\n\n# S-0001: Slice 1\n\n'

  it('accepts a contract with bold labels, a tight list and numbered steps', () => {
    expectAccepted(boldContract, false)
    expectAccepted(boldContract, true)
  })

  it('accepts a contract in a fenced block with indented items', () => {
    expectAccepted(fencedContract, false)
    expectAccepted(fencedContract, true)
  })

  it('accepts a contract in a go block, and prose with code and a link', () => {
    expectAccepted(goContract, false)
    expectAccepted(goContract, true)
  })

  it('accepts a file with frontmatter and contracts in all three dialects', () => {
    expectAccepted(frontmatterBlock + boldContract + '\n' + fencedContract + '\n' + goContract, true)
  })

  it('accepts every file of the benchmark corpus', async () => {
    const {writeCorpus} = (await import(path.join(root, 'bench/corpus.mjs'))) as {
      writeCorpus: (dir: string, options: {files: number; largeContracts: number}) => {paths: string[]; bytes: number}
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'simple-markdown-'))
    try {
      const {paths} = writeCorpus(dir, {files: 20, largeContracts: 60})
      expect(paths.length).toBe(21)
      for (const file of paths) {
        const document = readFileSync(file, 'utf8')
        expectAccepted(document, true)
        // Files without frontmatter read the same without the extension.
        if (!document.startsWith('---')) expectAccepted(document, false)
      }
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

/**
 * Documents at the edges of the subset: `[name, document, accept]`. Each must
 * be refused or read as micromark reads it, with frontmatter on and off;
 * `accept` says with which settings it must also be accepted.
 */
type Accept = 'both' | 'frontmatter' | 'plain' | undefined
const edges: ReadonlyArray<readonly [string, string, Accept]> = [
  // Lists.
  ['lazy continuation after a list item', '- a\nb\n', undefined],
  ['lazy continuation after an ordered item', '1. a\nb c\n', undefined],
  ['`2. x` right after a paragraph', 'para\n2. x\n', undefined],
  ['`2. x` right after a bullet item', '- a\n2. x\n', undefined],
  ['`1. x` right after a paragraph', 'para\n1. x\n', 'both'],
  ['`1. x` right after a bullet item', '- a\n1. x\n', 'both'],
  ['`- x` right after an ordered item', '1. a\n- x\n', 'both'],
  ['bullets of different markers', '- a\n* b\n+ c\n', 'both'],
  ['`1)` after `1.`', '1. a\n1) b\n', 'both'],
  ['ordered list starting at 3', '3. a\n4. b\n', 'both'],
  ['ordered list with a long number', '123456789. a\n', 'both'],
  ['ordered list with a ten-digit number', '1234567890. a\n', undefined],
  ['ordered list starting at 0', '0. a\n', 'both'],
  ['loose list', '- a\n\n- b\n', undefined],
  ['loose ordered list', '1. a\n\n2. b\n', undefined],
  ['list, blank line, list of another kind', '- a\n\n1. b\n', undefined],
  ['list, blank line, paragraph', '- a\n\npara\n', 'both'],
  ['empty list item', '-\n', undefined],
  ['list item with two spaces', '-  a\n', undefined],
  ['list item holding a heading', '- # a\n', undefined],
  ['list item holding a list', '- - a\n', undefined],
  ['list item holding a fence', '- ```\n', undefined],
  ['task list item', '- [ ] a\n', undefined],
  ['nested list', '- a\n  - b\n', undefined],
  // Setext headings and thematic breaks.
  ['setext heading with `===`', 'Title\n===\n', undefined],
  ['setext heading with `---`', 'Title\n---\n', undefined],
  ['thematic break `---`', 'a\n\n---\n\nb\n', undefined],
  ['thematic break `***`', '***\n', undefined],
  ['thematic break `- - -`', '- - -\n', undefined],
  ['thematic break `___`', '___\n', undefined],
  ['`==` alone', '==\n', undefined],
  // Frontmatter.
  ['frontmatter', '---\ntitle: x\n---\n\n# A\n', 'frontmatter'],
  ['empty frontmatter', '---\n---\n', 'frontmatter'],
  ['frontmatter without a final newline', '---\na: b\n---', 'frontmatter'],
  ['frontmatter right before a paragraph', '---\na: b\n---\ntext\n', 'frontmatter'],
  ['frontmatter right before a heading', '---\na: b\n---\n# H\n', 'frontmatter'],
  ['frontmatter with a blank line inside', '---\na: b\n\nc: d\n---\n', 'frontmatter'],
  ['`---` on the first line with frontmatter off', '---\ntitle: x\n---\n', undefined],
  ['unclosed frontmatter', '---\ntitle: x\n', undefined],
  ['frontmatter closed by `--- `', '---\ntitle: x\n--- \n', undefined],
  ['frontmatter opened by `--- `', '--- \ntitle: x\n---\n', undefined],
  ['frontmatter closed by `----`', '---\ntitle: x\n----\n---\n', undefined],
  ['frontmatter not on the first line', '\n---\ntitle: x\n---\n', undefined],
  ['`+++` frontmatter', '+++\ntitle = 1\n+++\n', undefined],
  // Headings.
  ['ATX headings of every depth', '# 1\n## 2\n### 3\n#### 4\n##### 5\n###### 6\n', 'both'],
  ['heading with closing `#`s', '# a #\n', undefined],
  ['heading with closing `##`', '## a ##\n', undefined],
  ['heading ending in `#` without a space', '# a#\n', 'both'],
  ['heading of `#` alone', '#\n', undefined],
  ['heading of `##` alone', '##\n', undefined],
  ['heading `# #`', '# #\n', undefined],
  ['seven `#`', '####### x\n', 'both'],
  ['`#tag`', '#tag\n', 'both'],
  ['heading with two spaces', '#  a\n', undefined],
  ['heading right after a paragraph', 'a\n# b\n', 'both'],
  ['heading right after a list item', '- a\n# b\n', 'both'],
  ['heading with strong, code and a link', '## **C-1:** `x` [y](z)\n', 'both'],
  // Strong.
  ['`**a:** b`', '**a:** b\n', 'both'],
  ['`**a** **b**`', '**a** **b**\n', 'both'],
  ['`x **a**, y`', 'x **a**, y\n', 'both'],
  ['`**a**.` and `**a**)`', '**a**.\n(x **a**)\n', undefined],
  ['`**a**b`', '**a**b\n', undefined],
  ['`a**b**`', 'a**b**\n', undefined],
  ['`**a **`', '**a **\n', undefined],
  ['`** a**`', '** a**\n', undefined],
  ['`***a***`', '***a***\n', undefined],
  ['`**a:**b`', '**a:**b\n', undefined],
  ['`(**a**)`', '(**a**)\n', undefined],
  ['`**`a`**`', '**`a`**\n', undefined],
  ['`****`', '****\n', undefined],
  ['`**a**` across lines', '**a\nb**\n', undefined],
  ['`__a__`', '__a__\n', undefined],
  ['unclosed `**`', '**a\n', undefined],
  // Underscores and asterisks.
  ['`snake_case`', 'a snake_case word\n', 'both'],
  ['`_x_`', '_x_\n', undefined],
  ['`a_`', 'a_ b\n', undefined],
  ['`_a`', 'b _a\n', undefined],
  ['`é_é`', 'é_é\n', undefined],
  ['`*x*`', '*x*\n', undefined],
  ['`a * b`', 'a * b\n', undefined],
  // Code spans.
  ['code span', 'a `b` c\n', 'both'],
  ['code span with two backticks around a backtick', '``a`b``\n', 'both'],
  ['code span `` `a` `` with padding', '`` `a` ``\n', 'both'],
  ['code span padded on both sides', '` a `\n', 'both'],
  ['code span padded on one side', '` a`\n', undefined],
  ['code span of two spaces', '`  `\n', undefined],
  ['code span of one space', '` `\n', undefined],
  ['code span padded twice', '`  a  `\n', undefined],
  ['unmatched backtick', 'a ` b\n', undefined],
  ['unmatched double backtick', 'a `` b `c`\n', undefined],
  ['backticks of different lengths', 'a ``b` c\n', undefined],
  ['code span across lines', 'a `b\nc` d\n', undefined],
  ['code span holding `*` and `[`', '`*a* [b](c) _d_ \\ & <e>`\n', 'both'],
  ['code span right after a word', 'a`b`c\n', 'both'],
  // Links.
  ['link inside a paragraph', 'see [a](b) now\n', 'both'],
  ['link at the start of a line', '[a](b)\n', undefined],
  ['link at the start of a second line', 'x\n[a](b)\n', undefined],
  ['link followed by a word', 'x [a](b)c\n', 'both'],
  ['`[a] (b)`', 'x [a] (b)\n', undefined],
  ['link with a title', 'x [a](b "t")\n', undefined],
  ['link with `<b>`', 'x [a](<b>)\n', undefined],
  ['`[[a]](b)`', 'x [[a]](b)\n', undefined],
  ['image', 'x ![a](b)\n', undefined],
  ['`!` before a link', 'x !\n', 'both'],
  ['empty link text', 'x [](b)\n', undefined],
  ['empty url', 'x [a]()\n', undefined],
  ['link with parentheses in the url', 'x [a](b(c))\n', undefined],
  ['link across lines', 'x [a\nb](c)\n', undefined],
  ['link with strong text', 'x [**a**](b)\n', undefined],
  ['link with code text', 'x [`a`](b)\n', undefined],
  ['`]` alone', 'x ] y\n', undefined],
  ['reference link', 'x [a][b]\n', undefined],
  // Escapes, entities, HTML.
  ['backslash escape', 'a \\* b\n', undefined],
  ['hard break backslash', 'a\\\nb\n', undefined],
  ['`&amp;`', 'a &amp; b\n', undefined],
  ['`&` alone', 'a & b\n', undefined],
  ['inline `<b>`', 'a <b> c\n', undefined],
  ['block `<b>`', '<b>\n', undefined],
  ['autolink', 'x <https://a.b>\n', undefined],
  // Comments.
  ['comment on one line', '<!-- lint disable -->\n', 'both'],
  ['comment over lines', '<!--\nlint disable\n-->\n', 'both'],
  ['comment followed by text on the same line', '<!-- a --> b *c*\n', 'both'],
  ['comment followed by text on the next line', '<!-- a -->\nb\n', 'both'],
  ['comment with `-->` later on the first line', '<!--a-->\n', 'both'],
  ['`<!-->`', '<!-->\n', undefined],
  ['`<!--->`', '<!--->\n', undefined],
  ['`<!---->`', '<!---->\n', 'both'],
  ['unclosed comment', '<!-- a\nb\n', undefined],
  ['comment right after a paragraph line', 'a\n<!-- b -->\n', 'both'],
  ['comment right after a list item', '- a\n<!-- b -->\n', 'both'],
  ['comment right after a heading', '# a\n<!-- b -->\n', 'both'],
  ['comment holding a fence', '<!--\n```\n-->\n', 'both'],
  // Fences.
  ['fence with a language and meta', '```js title="x" {1,2}\na\n```\n', 'both'],
  ['fence with a language and two spaces of meta', '```js a  b\na\n```\n', undefined],
  ['fence with a space before the language', '``` js\na\n```\n', undefined],
  ['fence with a trailing space', '```js \na\n```\n', undefined],
  ['fence with a backtick in its info', '```a`b\na\n```\n', undefined],
  ['tilde fence with a backtick in its info', '~~~a`b\na\n~~~\n', undefined],
  ['fence with `\\` or `&` in its info', '```a\\b\n```\n```a&amp;b\n```\n', undefined],
  ['tilde fence', '~~~\na\n~~~\n', 'both'],
  ['tilde fence closed by backticks', '~~~\na\n```\n~~~\n', 'both'],
  ['backtick fence closed by tildes', '```\na\n~~~\n```\n', 'both'],
  ['closing fence longer', '```\na\n`````\n', 'both'],
  ['closing fence shorter', '````\na\n```\n````\n', 'both'],
  ['closing fence with info', '```\na\n```b\n```\n', 'both'],
  ['closing fence with a trailing space', '```\na\n``` \n```\n', undefined],
  ['closing fence indented', '```\na\n ```\n```\n', undefined],
  ['unclosed fence', '```\na\n', undefined],
  ['unclosed fence at the end', '```', undefined],
  ['empty fence', '```\n```\n', 'both'],
  ['fence holding blank lines only', '```\n\n\n```\n', 'both'],
  ['fence right after a list item', '- a\n```\nb\n```\n', 'both'],
  ['fence right after a paragraph', 'a\n```\nb\n```\n', 'both'],
  ['paragraph right after a fence', '```\nb\n```\na\n', 'both'],
  ['fence with markdown inside', '```\n# a\n- b\n**c** <d> & \\ [e](f)\n  - g\n---\n```\n', 'both'],
  ['fence holding a frontmatter-like block', '```\n---\na: b\n---\n```\n', 'both'],
  ['fence of two backticks', '``\na\n``\n', undefined],
  ['tabs in code content', '```\n\ta\tb\n  \t- c\n```\n', 'both'],
  ['trailing spaces in code content', '```\na  \n  \n```\n', 'both'],
  // Whitespace and odd characters.
  ['tab at the start of a line', '\ta\n', undefined],
  ['tab inside a paragraph', 'a\tb\n', undefined],
  ['tab after a list marker', '-\ta\n', undefined],
  ['tab after a heading marker', '#\ta\n', undefined],
  ['CRLF line endings', '# a\r\n\r\nb\r\n', undefined],
  ['CR line endings', '# a\r\rb\r', undefined],
  ['byte order mark', '\ufeff# a\n', undefined],
  ['NUL', 'a\u0000b\n', undefined],
  ['non-breaking space', 'a\u00a0b\n', undefined],
  ['non-breaking space around strong', '\u00a0**a**\u00a0b\n', undefined],
  ['line separator U+2028', 'a\u2028b\n', undefined],
  ['next line U+0085', 'a\u0085b\n', 'both'],
  ['vertical tab and form feed', 'a\u000bb\n\u000c\n', undefined],
  ['trailing spaces', 'a  \nb\n', undefined],
  ['trailing space at the end', 'a ', undefined],
  ['leading spaces', '  a\n', undefined],
  ['indented code', '    a\n', undefined],
  ['blank line of spaces', 'a\n  \nb\n', undefined],
  ['astral characters and combining marks in text', '# 👍 e\u0301 𝒳\n\nA 👩‍👩‍👧 and a\u0308\u0301\u0323 then 漢字.\n', 'both'],
  ['astral characters in strong, code and links', '**👍:** `𝒳 e\u0301` [👩‍👩‍👧](https://x.y/😀) 😀 **e\u0301**\n- 👍 `😀`\n', 'both'],
  ['astral characters in a fence and a comment', '```😀 👍\n𝒳\n```\n<!-- 😀 -->\n', 'both'],
  ['astral characters in frontmatter', '---\na: 😀\n---\n**😀:** x\n', 'frontmatter'],
  ['lone surrogates', 'a \ud800 b \udfff\n', 'both'],
  ['right-to-left and zero-width characters', 'עברית \u200b\u200d\u200f\u202e x\n', 'both'],
  ['Unicode punctuation around strong', '“**a**” **b**…\n', undefined],
  // Shapes of the whole document.
  ['empty document', '', 'both'],
  ['document without a final newline', '# a\n\nb', 'both'],
  ['document ending in a list item without a newline', '- a', 'both'],
  ['only blank lines', '\n\n\n', 'both'],
  ['one newline', '\n', 'both'],
  ['paragraph over lines', 'a\nb **c:** d\ne\n', 'both'],
  ['block quote', '> quote\n', undefined],
  ['`>` inside a paragraph', 'a > b\n', 'both'],
  ['definition', '[x]: /def\n', undefined],
  ['definition used', 'x [y][x]\n\n[x]: /def\n', undefined],
  ['table lines', '|a|b|\n|-|-|\n', undefined],
  ['table line alone', '|a|b|\n', 'both'],
  ['`=` at the start of a line', 'a\n=b\n', 'both'],
  ['`+` and `-` at the start of a line', '+a\n-b\n', 'both'],
  ['`1.` without content', 'a\n1.\n', undefined],
  ['`1.x`', '1.x\n', 'both'],
  // Found by the properties below.
  ['heading with two spaces after a paragraph', 'a\n##  b\n', undefined],
  ['empty `+` item', '+\n', undefined],
  ['empty `1.` item', '1.\n', undefined],
  ['empty `1)` item after a blank line', 'a\n\n1)\n', undefined],
  ['list item holding a thematic break', '+ ---\n', undefined],
  ['ordered item holding a thematic break', '1. -- -\n', undefined],
  ['item holding a thematic break after an item', '- a\n* ***\n', undefined],
  ['`01.` right after a paragraph', 'a\n01. b\n', undefined],
  ['`001)` right after a paragraph', 'a\n001) b\n', undefined],
  ['`01.` at the start', '01. a\n02. b\n', undefined],
  ['closing fence indented by three spaces', '~~~\na\n   ~~~\n~~~\n', undefined],
  ['closing fence with a trailing tab', '```\na\n```\t\n```\n', undefined]
]

describe('parseSimpleMarkdown: documents it must refuse or get right', () => {
  it.each(edges)('%s', (_name, document, accept) => {
    expectSameOrRefused(document)
    if (accept === 'both' || accept === 'plain') expectAccepted(document, false)
    if (accept === 'both' || accept === 'frontmatter') expectAccepted(document, true)
  })

  it('agrees with micromark when every edge is put after frontmatter, after a paragraph, in a list and before a list', () => {
    for (const [, document] of edges) {
      const body = document.endsWith('\n') ? document : document + '\n'
      expectSameOrRefused('---\na: b\n---\n' + document, true)
      expectSameOrRefused('x\n' + document)
      expectSameOrRefused('- x\n' + document)
      expectSameOrRefused(body + '- x\n')
      expectSameOrRefused(body + 'x\n')
      expectSameOrRefused(body + '\n1. x\n')
    }
  })
})

// ---------------------------------------------------------------------------
// Part 2: properties.

const words = ['Open', 'the', 'badge', 'shows', 'Draft', '404', 'p95', '/campaigns/1', 'x-y', 'a.b', 'C-1:', 'S-0001', '->', '--', 'verified', 'by:', 'é', '漢字', '👍', 'e\u0301', '𝒳', '😀']

/** Inline snippets inside the subset. */
const safeSnippet: Arbitrary<string> = fc.oneof(
  {weight: 10, arbitrary: fc.constantFrom(...words)},
  {weight: 2, arbitrary: fc.constantFrom('`npm test -- x`', '`code`', '`a_b*c`', '`` a`b ``', '`😀`', '`e\u0301`')},
  {weight: 2, arbitrary: fc.constantFrom('**Label:**', '**Verification:**', '**a**', '**a b**,', '**😀**', '**e\u0301:**')},
  {weight: 2, arbitrary: fc.constantFrom('[link](https://example.com)', '[a b](/x/y)', '[😀](#x)', '[e\u0301](x.md)')},
  {weight: 1, arbitrary: fc.constantFrom('snake_case', 'a_b_c', '1_000', '(x)', 'a,', 'b.', 'c:', 'd;', 'e!', 'f?', '#tag', '>', '|a|', '=', '+1')}
)

/** Inline snippets of every kind, in the subset or outside it. */
const anySnippet: Arbitrary<string> = fc.oneof(
  {weight: 6, arbitrary: safeSnippet},
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '*', '**', '***', '_', '__', '`', '``', '[', ']', '(', ')', '!', '\\', '&', '<', '>', '#', '~', '|', ':', '-', '1.', '2)',
      '*em*', '_em_', '**a**b', 'a**b**', '** a**', '**a **', '***a***', '**a:**b', '(**a**)', '**`a`**', '**[a](b)**', '__a__',
      '` a`', '`  `', '` `', '``a`', 'a`b', '![a](b)', '[a](b "t")', '[a](<b>)', '[[a]](b)', '[a] (b)', '[a][b]', '[a]', '[](b)',
      '[a]()', '[a](b(c))', '\\*', '&amp;', '&copy;', '&#x41;', '<b>', '</b>', '<https://x.y>', '<!-- c -->', 'a\\', 'x_', '_x',
      'é_é', '“**a**”', '**a**…', '**a**-', '**a**"'
    )
  },
  {weight: 2, arbitrary: fc.constantFrom('\u00a0', '\u3000', '\u2028', '\u2029', '\u0085', '\u000b', '\u000c', '\u200b', '\ufeff', '\t', '\u0000', '\ud800', 'a\u0308\u0301\u0323', '👩‍👩‍👧', '\u{10FFFF}')},
  {weight: 1, arbitrary: fc.string({unit: 'grapheme', minLength: 1, maxLength: 3})},
  {weight: 1, arbitrary: fc.string({unit: 'binary', minLength: 1, maxLength: 3}).map((value) => value.replace(/[\r\n]/g, ' '))}
)

const safeInline: Arbitrary<string> = fc.array(safeSnippet, {minLength: 1, maxLength: 6}).map((parts) => parts.join(' '))

const anyInline: Arbitrary<string> = fc
  .array(fc.tuple(anySnippet, fc.constantFrom(' ', ' ', ' ', '', '  ')), {minLength: 1, maxLength: 6})
  .map((parts) => parts.map(([snippet, space]) => snippet + space).join(''))
  .map((value) => value.replace(/^ +/, ''))

const labels = ['Boundary', 'Slice', 'Verification', 'Acceptance Criteria', 'Steps', 'Security', 'Dependencies', 'ID']
const fenceMarkers = ['```', '```', '~~~', '````']
const fenceInfos = ['', '', 'go', 'yaml', 'js title="x"', 'ts {1,2}']
const codeLines = ['Contract: X', 'Verification: auto', 'Acceptance Criteria:', '  - item -- verified by: `npm test`', '// Contract: X', '//   - x', '\tindented', '', '# not a heading', '**x**', '<!-- x -->', '---', 'a  ']

// Blocks inside the subset: assembled, they should mostly be accepted.

const safeHeading = fc.tuple(fc.integer({min: 1, max: 6}), safeInline).map(([depth, content]) => '#'.repeat(depth) + ' ' + content)
const safeLabelLine = fc.tuple(fc.constantFrom(...labels), fc.option(safeInline, {nil: ''})).map(([label, value]) => (value === '' ? `**${label}:**` : `**${label}:** ${value}`))
const safeParagraph = fc.array(fc.oneof(safeLabelLine, safeInline), {minLength: 1, maxLength: 3}).map((lines) => lines.join('\n'))
const safeList = fc
  .tuple(fc.constantFrom('-', '*', '+', '.', ')'), fc.integer({min: 0, max: 12}), fc.constantFrom(1, 1, 1, 2), fc.array(safeInline, {minLength: 1, maxLength: 4}))
  .map(([marker, start, width, items]) =>
    items
      .map((item, index) => (marker === '.' || marker === ')' ? `${String(start + index).padStart(width, '0')}${marker} ${item}` : `${marker} ${item}`))
      .join('\n')
  )
const safeLabelledList = fc
  .tuple(safeLabelLine, fc.constantFrom('- ', '1. '), fc.array(safeInline, {minLength: 1, maxLength: 4}))
  .map(([label, marker, items]) => [label, ...items.map((item) => marker + item)].join('\n'))
const safeFence = fc
  .tuple(fc.constantFrom(...fenceMarkers), fc.constantFrom(...fenceInfos), fc.array(fc.oneof(fc.constantFrom(...codeLines), safeInline, anyInline), {maxLength: 5}), fc.nat(2))
  .map(([marker, info, lines, longer]) => [marker + info, ...lines, marker + marker[0]!.repeat(longer)].join('\n'))
const safeComment = fc.constantFrom('<!-- lint disable -->', '<!-- lint enable remark-lint-verification-tier -->', '<!--\nx\n-->', '<!-- a -->b', '<!---->')
const safeFrontmatter = fc
  .array(fc.constantFrom('title: Slice 1', 'slice: S-0001', 'owner: team-0', 'tags: [a, b]', '', '# comment', 'a: 😀'), {maxLength: 4})
  .map((lines) => ['---', ...lines, '---'].join('\n'))

const safeBlock: Arbitrary<string> = fc.oneof(
  {weight: 3, arbitrary: safeHeading},
  {weight: 3, arbitrary: safeParagraph},
  {weight: 2, arbitrary: safeList},
  {weight: 2, arbitrary: safeLabelledList},
  {weight: 2, arbitrary: safeFence},
  {weight: 1, arbitrary: safeComment}
)

/** A document of blocks inside the subset (frontmatter only when the setting reads it), with `frontmatter`. */
const inSubset: Arbitrary<{document: string; frontmatter: boolean}> = fc
  .tuple(
    fc.boolean(),
    fc.boolean(),
    safeFrontmatter,
    fc.array(fc.tuple(safeBlock, fc.constantFrom('\n\n', '\n\n', '\n\n', '\n', '\n\n\n')), {minLength: 1, maxLength: 8}),
    fc.constantFrom('\n', '\n', '')
  )
  .map(([frontmatter, withYaml, yaml, blocks, end]) => {
    const body = blocks.map(([block, joint], index) => (index === 0 ? block : joint + block)).join('')
    return {document: (frontmatter && withYaml ? yaml + blocks[0]![1] : '') + body + end, frontmatter}
  })

// Lines of every shape, inside the subset and outside it, assembled at random.

const anyLine: Arbitrary<string> = fc.oneof(
  {weight: 3, arbitrary: fc.tuple(fc.constantFrom('#', '##', '###', '######', '#######', '#', '# ', ' #'), fc.constantFrom(' ', ' ', '', '  ', '\t'), anyInline, fc.constantFrom('', '', ' #', ' ##', '#', ' ')).map((parts) => parts.join(''))},
  {weight: 3, arbitrary: fc.tuple(fc.constantFrom(...labels), anyInline).map(([label, value]) => `**${label}:** ${value}`)},
  {weight: 2, arbitrary: safeLabelLine},
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom('- ', '* ', '+ ', '1. ', '2. ', '1) ', '3) ', '10. ', '0. ', '01. ', '001) ', '-  ', '-\t', '  - ', '   1. ', '    - ', '-', '+', '*', '1.', '1)', '123456789. ', '1234567890. '),
        fc.oneof(safeInline, anyInline, fc.constantFrom('', '---', '***', '- - -', '-- -', '___', '===', '- a', '1. a', '# a', '> a', '```', '<!-- a -->')))
      .map(([marker, content]) => marker + content)
  },
  {weight: 2, arbitrary: fc.tuple(fc.constantFrom('```', '~~~', '````', '``', ' ```', '   ~~~', '    ```', '`````'), fc.constantFrom('', '', 'go', 'js a', 'a b  c', ' js', 'a`b', 'a\\b', 'a&b', 'x ')).map((parts) => parts.join(''))},
  {weight: 2, arbitrary: fc.constantFrom('```', '```', '~~~', '````', '``` ', ' ```')},
  {weight: 2, arbitrary: fc.constantFrom('<!--', '<!-- lint disable -->', '<!-- a', '-->', 'a -->', '--> b', '<!-->', '<!--->', '<!---->', ' <!-- x -->', '<b>', '<div>')},
  {weight: 2, arbitrary: fc.constantFrom('---', '--- ', '----', '***', '- - -', '___', '===', '=', '-', '+++', ' ---', 'a: b', 'title: x')},
  {weight: 4, arbitrary: fc.constantFrom('', '', '', ' ', '\t', '  ')},
  {weight: 5, arbitrary: anyInline},
  {weight: 3, arbitrary: safeInline},
  {weight: 1, arbitrary: fc.constantFrom('> quote', '>', '[x]: /def', '[a](b) c', '|a|b|', '|-|-|', '    code', '\tcode', '  indented', 'a  ', 'a\\')}
)

/** Lines of every shape, joined mostly with LF, sometimes with other line endings, maybe after frontmatter. */
const anyShapes: Arbitrary<{document: string; frontmatter: boolean}> = fc
  .tuple(
    fc.boolean(),
    fc.option(fc.oneof(safeFrontmatter, fc.constantFrom('---\n', '---\na\n--- ', '---\n---', '---\na: b\n----', '--- \na\n---')), {nil: '', freq: 3}),
    fc.array(anyLine, {minLength: 0, maxLength: 14}),
    fc.oneof({weight: 8, arbitrary: fc.constant(['\n'])}, {weight: 1, arbitrary: fc.array(fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\u2028'), {minLength: 1, maxLength: 3})}),
    fc.constantFrom('\n', '\n', '', '\n\n', ' ')
  )
  .map(([frontmatter, yaml, lines, endings, end]) => {
    const parts = yaml === '' ? lines : [yaml, ...lines]
    const document = parts.reduce((out, line, index) => (index === 0 ? line : out + endings[index % endings.length]! + line), '') + (parts.length > 0 ? end : '')
    return {document, frontmatter}
  })

/** Same or refused, never throwing anything but a difference. */
function property(document: string, frontmatter: boolean): void {
  sameOrRefused(document, frontmatter)
}

describe('parseSimpleMarkdown: properties', () => {
  it('gives micromark’s tree or refuses, for documents of blocks inside the subset', () => {
    fc.assert(
      fc.property(inSubset, ({document, frontmatter}) => property(document, frontmatter)),
      settings(800, 1)
    )
  })

  it('accepts most documents of blocks inside the subset (the properties are not vacuous)', () => {
    const samples = fc.sample(inSubset, settings(800, 1))
    const accepted = samples.filter(({document, frontmatter}) => parseSimpleMarkdown(document, frontmatter) !== undefined).length
    const ratio = accepted / samples.length
    console.log(`simple-markdown: accepted ${accepted} of ${samples.length} in-subset documents (${(ratio * 100).toFixed(1)}%)`)
    expect(ratio).toBeGreaterThanOrEqual(0.3)
  })

  it('gives micromark’s tree or refuses, for lines of every shape', () => {
    let accepted = 0
    let total = 0
    fc.assert(
      fc.property(anyShapes, ({document, frontmatter}) => {
        total++
        if (sameOrRefused(document, frontmatter) !== undefined) accepted++
      }),
      settings(2500, 2)
    )
    console.log(`simple-markdown: accepted ${accepted} of ${total} documents of lines of every shape (${((accepted / total) * 100).toFixed(1)}%)`)
    // Not vacuous either: a good share is inside the subset.
    expect(accepted).toBeGreaterThan(total * 0.05)
  })

  it('gives micromark’s tree or refuses, for generated contracts and noisy documents', () => {
    fc.assert(
      fc.property(fc.oneof(contractDocument, noisyDocument, withLineEndings(contractishLines, {bom: true})), fc.boolean(), property),
      settings(500, 3)
    )
  })

  it('never throws and gives micromark’s tree or refuses, for random strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          randomString,
          fc.string({unit: 'grapheme', maxLength: 60}),
          fc.string({unit: 'binary', maxLength: 60}),
          fc.string({unit: fc.constantFrom('*', '_', '`', '-', '+', ' ', '\n', '#', '>', ':', 'a', 'b', '0', '1', '.', ')', '[', ']', '(', '!', '<', '~', '\\', '&', '='), maxLength: 60})
        ),
        fc.boolean(),
        property
      ),
      settings(2000, 4)
    )
  })
})
