import {isContractRule} from '@verification-tiers/lint-rule'
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {Extension as FromMarkdownExtension, Options as FromMarkdownOptions} from 'mdast-util-from-markdown'
import type {Extension as MicromarkExtension} from 'micromark-util-types'
import type {Plugin, Processor} from 'unified'
import {parseInSections} from './parse-in-sections.js'
import {parseSimpleMarkdown} from './simple-markdown.js'

// Plugins that add no checks of their own beside the contract rules: with only
// these, a file without a contract gets no message, so it need not be parsed.
// (`lintMessageControl` is what remark-lint attaches for its comments.)
const plainPlugins = new Set(['remarkParse', 'remarkStringify', 'remarkFrontmatter', 'remarkLint', 'lintMessageControl', 'remarkParseFast'])

/** Whether every plugin of the processor is a contract rule or one that reports nothing by itself. */
export function runsOnlyContractRules(attachers: ReadonlyArray<readonly unknown[]>): boolean {
  return attachers.every(([plugin]) => isContractRule(plugin) || (typeof plugin === 'function' && plainPlugins.has(plugin.name)))
}

// A contract heading is read from the heading's text, after markup: `_C-01_`,
// `**C**-01`, `[C](x)-01` and `` `Contract`: `` all read as ids or labels. So
// the sign is looked for in the text with emphasis, code and link markers
// taken out, and escapes, character references and HTML (`<!--lint …-->`
// included) count as signs themselves.
// (`C12. Name` is a contract heading too: the hyphen is optional.)
const contractSign = /c-?\d|contract|[\\&<]/i
const linkTails = /\]\([^)]*\)|\]\[[^\]]*\]/g
const markers = /[*_`~[\]]/g
const frontmatterStart = /^\uFEFF?(?:---|\+\+\+)[ \t]*(?:\r\n|\r|\n|$)/

/** Whether the text may hold a contract, a contract’s frontmatter or a lint comment. */
export function mayHoldContracts(text: string): boolean {
  return frontmatterStart.test(text) || contractSign.test(text.replace(linkTails, '').replace(markers, ''))
}

/** Whether a syntax extension is remark-frontmatter’s, and for which fences (`-` YAML, `+` TOML). */
function frontmatterFences(extension: MicromarkExtension): string[] | undefined {
  const keys = Object.keys(extension)
  if (keys.length !== 1 || keys[0] !== 'flow' || !extension.flow) return undefined
  const entries = Object.entries(extension.flow)
  const only = entries.every(([, constructs]) => [constructs].flat().every((construct) => construct?.tokenize.name === 'tokenizeFrontmatter'))
  return only ? entries.map(([code]) => String.fromCharCode(Number(code))) : undefined
}

/** Whether every syntax extension is frontmatter, whose blocks never span a heading after the first. */
export function sectionSafe(extensions: ReadonlyArray<MicromarkExtension>): boolean {
  return extensions.every((extension) => frontmatterFences(extension) !== undefined)
}

/** Whether the syntax is plain markdown, with YAML frontmatter or without: what `parseSimpleMarkdown` reads. */
function simpleSyntax(extensions: ReadonlyArray<MicromarkExtension>): {frontmatter: boolean} | undefined {
  const fences = extensions.map(frontmatterFences)
  if (!fences.every((each) => each !== undefined && each.every((fence) => fence === '-'))) return undefined
  return {frontmatter: fences.length > 0}
}

const frontmatterNodes = new Set(['yaml', 'yamlValue', 'toml', 'tomlValue'])

/**
 * Whether the tree is built as plain remark builds it: frontmatter only as the
 * `yaml` and `toml` presets (no custom types, no `anywhere`), and no tree
 * extension but frontmatter’s (a transform would see sections, not the whole).
 */
function plainTree(attachers: ReadonlyArray<readonly unknown[]>, mdastExtensions: Array<FromMarkdownExtension | FromMarkdownExtension[]>): boolean {
  const presets = (value: unknown): boolean => value === undefined || value === null || value === 'yaml' || value === 'toml'
  const frontmatterPlain = attachers.every(([plugin, options]) => {
    if (typeof plugin !== 'function' || plugin.name !== 'remarkFrontmatter') return true
    return Array.isArray(options) ? options.every(presets) : presets(options)
  })
  return (
    frontmatterPlain &&
    mdastExtensions.flat().every((extension) => {
      const keys = Object.keys(extension)
      const handlers = [...Object.keys(extension.enter ?? {}), ...Object.keys(extension.exit ?? {})]
      return keys.every((key) => key === 'enter' || key === 'exit') && handlers.every((name) => frontmatterNodes.has(name))
    })
  )
}

/** An empty document spanning `text`, with the end point micromark would give it. */
function emptyRoot(text: string): Root {
  const value = text.startsWith('\uFEFF') ? text.slice(1) : text
  const lines = value.split(/\r\n|\r|\n/)
  const last = lines.at(-1) ?? ''
  return {
    type: 'root',
    children: [],
    position: {start: {line: 1, column: 1, offset: 0}, end: {line: lines.length, column: last.length + 1, offset: value.length}}
  }
}

/**
 * unified plugin: parse as remark-parse does (same options, same syntax
 * extensions, same tree), but documents in the plain subset of markdown that
 * contracts use with a small parser of that subset, large documents in
 * sections (time linear in their size), and, when the processor runs only
 * contract rules, files with no sign of a contract not at all.
 */
export const remarkParseFast: Plugin<[], string, Root> = function () {
  const self = this as unknown as Processor<Root>
  self.parser = function (document) {
    const extensions = (self.data('micromarkExtensions') ?? []) as MicromarkExtension[]
    const mdastExtensions = (self.data('fromMarkdownExtensions') ?? []) as Array<FromMarkdownExtension | FromMarkdownExtension[]>
    const options: FromMarkdownOptions = {...self.data('settings'), extensions, mdastExtensions}
    if (runsOnlyContractRules(self.attachers) && !mayHoldContracts(document)) return emptyRoot(document)
    if (!plainTree(self.attachers, mdastExtensions)) return fromMarkdown(document, options)
    const simple = simpleSyntax(extensions)
    const tree = simple ? parseSimpleMarkdown(document, simple.frontmatter) : undefined
    if (tree) return tree
    return sectionSafe(extensions) ? parseInSections(document, options) : fromMarkdown(document, options)
  }
}
