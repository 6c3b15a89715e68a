import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {Extension as FromMarkdownExtension, Options as FromMarkdownOptions} from 'mdast-util-from-markdown'
import type {Extension as MicromarkExtension} from 'micromark-util-types'
import type {Plugin, Processor} from 'unified'
import {parseInSections} from './parse-in-sections.js'
import {parseSimpleMarkdown} from './simple-markdown.js'

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

/**
 * unified plugin: parse as remark-parse does (same options, same syntax
 * extensions, same tree), but documents in the plain subset of markdown that
 * contracts use with a small parser of that subset, large documents in
 * sections (time linear in their size). Every file is parsed: a guess that
 * a file holds no contract can be fooled (an unclosed link before one).
 */
export const remarkParseFast: Plugin<[], string, Root> = function () {
  const self = this as unknown as Processor<Root>
  self.parser = function (document) {
    const extensions = (self.data('micromarkExtensions') ?? []) as MicromarkExtension[]
    const mdastExtensions = (self.data('fromMarkdownExtensions') ?? []) as Array<FromMarkdownExtension | FromMarkdownExtension[]>
    const options: FromMarkdownOptions = {...self.data('settings'), extensions, mdastExtensions}
    if (!plainTree(self.attachers, mdastExtensions)) return fromMarkdown(document, options)
    const simple = simpleSyntax(extensions)
    const tree = simple ? parseSimpleMarkdown(document, simple.frontmatter) : undefined
    if (tree) return tree
    return sectionSafe(extensions) ? parseInSections(document, options) : fromMarkdown(document, options)
  }
}
