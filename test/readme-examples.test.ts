/**
 * Docs are tests: every example in a rule’s readme is run through the rule,
 * and what it reports must be exactly what the readme says. Preset readmes
 * must name every rule their preset turns on, at its severity. Every `js`
 * block of a reporter’s readme runs, and what it logs must be the block
 * after its `Yields:`. All readmes must be clean under
 * `remark-preset-lint-recommended`.
 */
import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {format} from 'node:util'
import type {Code, Heading, Nodes, Paragraph, Root, RootContent} from 'mdast'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import remarkPresetLintRecommended from 'remark-preset-lint-recommended'
import type {Pluggable, Plugin, Preset} from 'unified'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {afterAll, describe, expect, it, vi} from 'vitest'

type VFileMessage = VFile['messages'][number]

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const packagesDirectory = path.join(root, 'packages')

/** The packages whose readmes this suite owns. */
const packageNames = fs
  .readdirSync(packagesDirectory)
  .filter(
    (name) =>
      name === 'contracts' ||
      name === 'lint-rule' ||
      name.startsWith('remark-lint-') ||
      name.startsWith('remark-preset-lint-verification-tiers') ||
      name.startsWith('vfile-reporter-')
  )
  .sort()
const ruleIds = packageNames.filter((name) => name.startsWith('remark-lint-')).map((name) => name.slice('remark-lint-'.length))
const presetNames = packageNames.filter((name) => name.startsWith('remark-preset-'))
const reporterNames = packageNames.filter((name) => name.startsWith('vfile-reporter-'))

interface Example {
  name: string
  /** `When configured with \`…\`` (parsed JSON), if given. */
  config: {value: unknown} | null
  input: string
  /** Expected `start-end: reason` lines; empty for “No messages.” */
  output: string[]
  line: number
}

function readme(packageName: string): string {
  return fs.readFileSync(path.join(packagesDirectory, packageName, 'readme.md'), 'utf8')
}

/** Read the `## Examples` section of a rule readme. Throws on anything it does not understand. */
function readExamples(source: string): Example[] {
  const tree = unified().use(remarkParse).parse(source) as Root
  const start = tree.children.findIndex((node) => isHeading(node, 2) && toString(node) === 'Examples')
  if (start === -1) throw new Error('Expected a `## Examples` section')
  let end = tree.children.findIndex((node, index) => index > start && node.type === 'heading' && node.depth <= 2)
  if (end === -1) end = tree.children.length
  const nodes = tree.children.slice(start + 1, end)
  const examples: Example[] = []
  let index = 0

  while (index < nodes.length) {
    const heading = nodes[index]!
    const line = heading.position?.start.line ?? 0
    const where = (what: string) => new Error(`${what} (readme line ${nodes[index]?.position?.start.line ?? line})`)
    if (!isHeading(heading, 5)) throw where('Expected a `#####` example heading')
    const name = heading.children.length === 1 && heading.children[0]!.type === 'inlineCode' ? heading.children[0]!.value : ''
    if (!/^(?:[\w.-]+\/)*[\w.-]+\.md$/.test(name))
      throw where("Expected an example heading to be a file name (or a path, for a tool's file) in inline code, such as `ok.md`")
    index++

    // Prose about the example, and the options it runs with, come before `###### In`.
    let config: Example['config'] = null
    while (nodes[index]?.type === 'paragraph') {
      const paragraph = nodes[index] as Paragraph
      if (toString(paragraph).startsWith('When configured with')) {
        if (config) throw where(`Unexpected second \`When configured with\` in \`${name}\``)
        config = {value: readConfig(paragraph, paragraph.position?.start.line ?? line)}
      }
      index++
    }

    if (!isHeading(nodes[index], 6) || toString(nodes[index]!) !== 'In') throw where(`Expected \`###### In\` in example \`${name}\``)
    index++
    const input = nodes[index]
    if (input?.type !== 'code' || input.lang !== 'markdown') throw where(`Expected a \`markdown\` code block after \`###### In\` in \`${name}\``)
    index++

    if (!isHeading(nodes[index], 6) || toString(nodes[index]!) !== 'Out') throw where(`Expected \`###### Out\` in example \`${name}\``)
    index++
    const out = nodes[index]
    let output: string[]
    if (out?.type === 'code' && out.lang === 'text') {
      output = out.value.split('\n')
      if (output.some((entry) => entry.trim() === '')) throw where(`Unexpected empty line in the output of \`${name}\``)
    } else if (out?.type === 'paragraph' && toString(out) === 'No messages.') {
      output = []
    } else {
      throw where(`Expected a \`text\` code block or \`No messages.\` after \`###### Out\` in \`${name}\``)
    }
    index++

    examples.push({name, config, input: (input as Code).value + '\n', output, line})
  }

  return examples
}

/** `When configured with \`{"max": 2}\`.`: the JSON in the inline code. */
function readConfig(paragraph: Paragraph, line: number): unknown {
  const [intro, value, outro, ...rest] = paragraph.children
  if (
    intro?.type !== 'text' ||
    intro.value !== 'When configured with ' ||
    value?.type !== 'inlineCode' ||
    outro?.type !== 'text' ||
    outro.value !== '.' ||
    rest.length > 0
  ) {
    throw new Error(`Expected \`When configured with \\\`…\\\`.\` (readme line ${line})`)
  }
  return JSON.parse(value.value)
}

/** Plain text of a node, as `mdast-util-to-string` gives it. */
function toString(node: Nodes): string {
  if ('value' in node) return node.value
  if ('children' in node) return (node.children as Nodes[]).map((child) => toString(child)).join('')
  return ''
}

function isHeading(node: RootContent | Nodes | undefined, depth: number): node is Heading {
  return node?.type === 'heading' && node.depth === depth
}

/** vfile’s order: place, then fatal first, then source, rule and reason. */
function compareMessage(a: VFileMessage, b: VFileMessage): number {
  return (
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    score(a.fatal) - score(b.fatal) ||
    String(a.source ?? '').localeCompare(String(b.source ?? '')) ||
    String(a.ruleId ?? '').localeCompare(String(b.ruleId ?? '')) ||
    a.reason.localeCompare(b.reason)
  )
}

function score(fatal: boolean | null | undefined): number {
  return fatal ? 0 : fatal === false ? 1 : 2
}

function formatPlace(message: VFileMessage): string {
  const place = message.place
  if (!place) return '?:?'
  if ('start' in place) return `${place.start.line}:${place.start.column}-${place.end.line}:${place.end.column}`
  return `${place.line}:${place.column}`
}

describe('readmes', () => {
  it('exist for every package', () => {
    expect(packageNames).toEqual(expect.arrayContaining(['contracts', 'lint-rule']))
    expect(ruleIds.length).toBeGreaterThanOrEqual(9)
    expect(presetNames.length).toBeGreaterThanOrEqual(2)
    expect(reporterNames).toEqual(['vfile-reporter-github', 'vfile-reporter-junit', 'vfile-reporter-sarif'])
    for (const name of packageNames) {
      expect(fs.existsSync(path.join(packagesDirectory, name, 'readme.md')), `packages/${name}/readme.md`).toBe(true)
    }
  })

  it('are clean under remark-preset-lint-recommended', async () => {
    const problems: string[] = []
    for (const name of packageNames) {
      const file = new VFile({path: `packages/${name}/readme.md`, value: readme(name)})
      await remark().use(remarkPresetLintRecommended).process(file)
      for (const message of file.messages) problems.push(`${file.path}:${formatPlace(message)}: ${message.reason}`)
    }
    expect(problems).toEqual([])
  })
})

for (const id of ruleIds) {
  describe(`remark-lint-${id} readme`, () => {
    const packageName = `remark-lint-${id}`
    // Reading the examples is itself a test: a missing or broken readme fails here.
    let examples: Example[] = []
    let readError: unknown = null
    try {
      examples = readExamples(readme(packageName))
    } catch (error) {
      readError = error
    }

    it('has well-formed examples, at least one without and one with messages', () => {
      if (readError) throw readError
      expect(examples.length).toBeGreaterThan(0)
      expect(
        examples.some((example) => example.output.length === 0),
        'an example with no messages'
      ).toBe(true)
      expect(
        examples.some((example) => example.output.length > 0),
        'an example with messages'
      ).toBe(true)
    })

    for (const example of examples) {
      const title = `${example.name}${example.config ? ' with ' + JSON.stringify(example.config.value) : ''} (readme line ${example.line})`
      it(title, async () => {
        const rule = (await import(packageName)).default as Plugin<[unknown?], Root>
        const processor = unified().use(remarkParse).use(remarkFrontmatter).use(remarkLint)
        if (example.config) processor.use(rule, example.config.value)
        else processor.use(rule)
        const file = new VFile({path: example.name, value: example.input})
        await processor.run(processor.parse(file), file)
        const messages = [...file.messages].sort(compareMessage)

        for (const message of messages) {
          expect(message.place, `place of “${message.reason}”`).toBeTruthy()
          expect(message.ruleId).toBe(id)
          expect(message.source).toBe('remark-lint')
          expect(message.url).toMatch(new RegExp(`^https://\\S+/packages/remark-lint-${id}#readme$`))
        }
        expect(messages.map((message) => `${formatPlace(message)}: ${message.reason}`)).toEqual(example.output)
      })
    }
  })
}

for (const presetName of presetNames) {
  describe(`${presetName} readme`, () => {
    it('names every rule of the preset, with its severity', async () => {
      const source = readme(presetName)
      const code = fs.readFileSync(path.join(packagesDirectory, presetName, 'lib', 'index.ts'), 'utf8')
      const imported = [...code.matchAll(/from '(remark-lint-[\w-]+)'/g)].map((match) => match[1]!)
      expect(imported.length).toBeGreaterThan(0)

      const preset = (await import(presetName)).default as Preset
      const rules = presetRules(preset)
      for (const name of imported) expect(rules.has(name), `${name} is in the preset`).toBe(true)

      const rows = tableRows(source)
      for (const [name, severity] of rules) {
        expect(source, `${presetName} readme names ${name}`).toContain(name)
        const row = rows.find((cells) => cells.some((cell) => cell === name))
        expect(row, `a table row for ${name}`).toBeTruthy()
        expect(row, `severity of ${name}`).toContain(severity)
      }
    })
  })
}

/** Rules a preset turns on (nested presets included), by package name, with severity. */
function presetRules(preset: Preset): Map<string, 'error' | 'warn'> {
  const rules = new Map<string, 'error' | 'warn'>()
  for (const entry of preset.plugins ?? []) visit(entry)
  return rules

  function visit(entry: Pluggable): void {
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      for (const child of entry.plugins ?? []) visit(child)
      return
    }
    const [plugin, config] = Array.isArray(entry) ? entry : [entry, undefined]
    if (typeof plugin !== 'function') {
      if (typeof plugin === 'object' && plugin !== null) visit(plugin as Pluggable)
      return
    }
    const [source, ruleId] = plugin.name.split(':')
    if (source !== 'remark-lint' || !ruleId) return
    const level = Array.isArray(config) ? config[0] : config
    if (level === false || level === 0 || level === 'off') return
    rules.set(`remark-lint-${ruleId}`, level === 'error' || level === 2 ? 'error' : 'warn')
  }
}

/** Cells of every table row (`| … |` line) of a readme, inline code and links reduced to their text. */
function tableRows(source: string): string[][] {
  return source
    .split('\n')
    .filter((line) => /^\s*\|.*\|\s*$/.test(line))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split('|')
        .map((cell) =>
          cell
            .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
            .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/`/g, '')
            .trim()
        )
    )
}

/** A `js` block of a readme and the block after the `Yields:` that follows it. */
interface ScriptExample {
  code: string
  output: string
  line: number
}

/** Every `js` block of a readme; each must be followed by `Yields:` and a code block. Throws on anything else. */
function readScriptExamples(source: string): ScriptExample[] {
  const nodes = (unified().use(remarkParse).parse(source) as Root).children
  const examples: ScriptExample[] = []
  nodes.forEach((node, index) => {
    if (node.type !== 'code' || node.lang !== 'js') return
    const line = node.position?.start.line ?? 0
    const [yields, output] = [nodes[index + 1], nodes[index + 2]]
    if (yields?.type !== 'paragraph' || toString(yields) !== 'Yields:' || output?.type !== 'code') {
      throw new Error(`Expected \`Yields:\` and a code block after the \`js\` block (readme line ${line})`)
    }
    examples.push({code: node.value, output: output.value, line})
  })
  return examples
}

// Examples run as modules inside the repository (gitignored), so that they import the packages as a user would.
const scratch = path.join(root, 'test', `.tmp-readme-${randomBytes(6).toString('hex')}`)

afterAll(() => {
  fs.rmSync(scratch, {recursive: true, force: true})
})

/** What `code` logs with `console.log`, run as a module. */
async function logged(code: string, name: string): Promise<string> {
  fs.mkdirSync(scratch, {recursive: true})
  const file = path.join(scratch, `${name}.mjs`)
  fs.writeFileSync(file, code)
  const lines: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void lines.push(format(...values)))
  try {
    await import(pathToFileURL(file).href)
  } finally {
    log.mockRestore()
  }
  return lines.join('\n')
}

for (const reporterName of reporterNames) {
  describe(`${reporterName} readme`, () => {
    let examples: ScriptExample[] = []
    let readError: unknown = null
    try {
      examples = readScriptExamples(readme(reporterName))
    } catch (error) {
      readError = error
    }

    it('has examples, each with what it yields', () => {
      if (readError) throw readError
      expect(examples.length).toBeGreaterThanOrEqual(2)
    })

    for (const example of examples) {
      it(`the example at readme line ${example.line} yields what the readme says`, async () => {
        expect(await logged(example.code, `${reporterName}-${example.line}`)).toBe(example.output)
      })
    }
  })
}
