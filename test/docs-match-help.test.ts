/**
 * The docs name only commands and options `tiers` has, and document every
 * one it has: README.md and packages/cli/readme.md against `tiers --help` and
 * each `tiers <command> --help`, read from the cli at run time (so a
 * command or option added later is checked too).
 *
 * What the docs claim, read as markdown:
 *
 * * in code (inline or a block), `tiers <command>` names a command, and each
 *   `--option` after it on that line an option of that command
 * * an inline code starting with `--option` names an option: of the command
 *   whose `### tiers <command>` section it is in, else of any command; in a
 *   paragraph that says the options are `not taken`, it names one the
 *   command does not have
 *
 * `--x` and `--no-x` count as one option (`--color`/`--no-color`). A
 * paragraph that mentions an unknown command on purpose says so
 * (`unknown command`).
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type {Heading, Parent, Root} from 'mdast'
import {toString} from 'mdast-util-to-string'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {visitParents} from 'unist-util-visit-parents'
import {beforeAll, describe, expect, it} from 'vitest'
import {builtBin, root} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

/** One thing a doc says `tiers` has (or, `absent`, has not). */
interface Claim {
  file: string
  line: number
  /** The command; `null` for an option of any command. */
  command: string | null
  option?: string
  absent?: boolean
  /** The heading of its section (of depth 2 or 3). */
  heading: string
}

const docs = ['README.md', 'packages/cli/readme.md']
const cliReadme = 'packages/cli/readme.md'

/** Options as a help lists them: `  -h, --help`, `  --dir <folder>`, at the start of a line of its Options section. */
function helpOptions(help: string): Set<string> {
  const section = /\nOptions:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? ''
  const options = new Set<string>()
  for (const line of section.split('\n')) {
    const match = /^ {2}(?:-\w, )?(--[a-z][a-z-]*)/.exec(line)
    if (match) options.add(match[1]!)
  }
  return options
}

/** The commands `tiers --help` lists: the first word of each line of its Commands section. */
function helpCommands(help: string): string[] {
  const section = /\nCommands:\n([\s\S]*?)\n\n/.exec(help)?.[1] ?? ''
  return section
    .split('\n')
    .map((line) => /^ {2}([a-z][a-z-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined)
}

/** A token of a command line without the brackets and punctuation around it: `[--detail` → `--detail`, `--timeout=5` → `--timeout`. */
const bare = (token: string): string =>
  token
    .replace(/^[[(`'"]+/, '')
    .replace(/[\]),.:;`'"]+$/, '')
    .replace(/=.*$/, '')

/** Where a shell line ends a command: a comment, a pipe, a redirection, the next command. */
const separators = new Set(['#', '|', '||', '&&', ';', '>', '2>', '<'])

/** Words that say the options of a clause are not taken. */
const negative = /\bnot taken\b|\btakes? none of\b/

/**
 * The claims of one line of code: every command line in it, `tiers <command>`
 * with the options after it. A command line starts the line (after `$ `) or
 * follows `npx`; elsewhere, `tiers` is a word of the text a command prints.
 */
function codeClaims(text: string, file: string, line: number): Array<Omit<Claim, 'heading'>> {
  const claims: Array<Omit<Claim, 'heading'>> = []
  const tokens = text.trim().replace(/^\$ /, '').split(/\s+/)
  for (let index = 0; index < tokens.length && tokens[index] !== '#'; index++) {
    if (tokens[index] !== 'tiers' || (index > 0 && bare(tokens[index - 1]!) !== 'npx')) continue
    const command = bare(tokens[index + 1] ?? '')
    if (!/^[a-z][a-z-]*$/.test(command)) continue
    claims.push({file, line, command})
    for (let after = index + 2; after < tokens.length && !separators.has(tokens[after]!) && bare(tokens[after]!) !== 'tiers'; after++) {
      const option = bare(tokens[after]!)
      if (/^--[a-z][a-z-]*$/.test(option)) claims.push({file, line, command, option})
    }
  }
  return claims
}

/** Every claim of a markdown file, in order. */
function docClaims(file: string, text: string): Claim[] {
  const tree = unified().use(remarkParse).parse(text) as Root
  const claims: Claim[] = []
  let section: string | null = null
  let heading = ''
  visitParents(tree, (node, ancestors) => {
    if (node.type === 'heading' && (node as Heading).depth <= 3) {
      heading = toString(node)
      section = /^tiers ([a-z][a-z-]*)/.exec(heading)?.[1] ?? null
    }
    if (node.type !== 'inlineCode' && node.type !== 'code') return
    const start = node.position!.start.line
    const paragraph = [...ancestors].reverse().find((parent: Parent) => parent.type === 'paragraph' || parent.type === 'listItem' || parent.type === 'heading')
    const words = paragraph ? toString(paragraph) : ''
    const lines = node.value.split('\n')
    // A block of output (`txt`, `text`) shows its commands after `$ `; its other lines are what they print.
    const output = node.type === 'code' && (node.lang === 'txt' || node.lang === 'text')
    for (const [offset, line] of lines.entries()) {
      if (/unknown command/.test(words) || (output && !line.startsWith('$ '))) continue
      claims.push(...codeClaims(line, file, start + offset + (node.type === 'code' ? 1 : 0)).map((claim) => ({...claim, heading})))
    }
    const standalone = node.type === 'inlineCode' ? /^--[a-z][a-z-]*/.exec(node.value)?.[0] : undefined
    if (standalone) {
      // The clause around it, in its paragraph, up to a `;` or the end of a sentence either side.
      const before = text.slice(paragraph?.position?.start.offset ?? 0, node.position!.start.offset)
      const after = text.slice(node.position!.end.offset, paragraph?.position?.end.offset)
      const opening = Math.max(before.lastIndexOf(';'), ...[...before.matchAll(/\.\s/g)].map((match) => match.index))
      const closing = after.search(/;|\.(?:\s|$)/)
      const clause = `${before.slice(opening + 1)}${closing < 0 ? after : after.slice(0, closing)}`
      claims.push({file, line: start, command: section, option: standalone, heading, ...(negative.test(clause) ? {absent: true} : {})})
    }
  })
  return claims
}

let commands: string[] = []
const optionsOf = new Map<string, Set<string>>()
let globalOptions = new Set<string>()
const claims: Claim[] = []

/** Whether `options` holds `option`, counting `--x` and `--no-x` as one. */
const holds = (options: ReadonlySet<string>, option: string): boolean =>
  options.has(option) || options.has(option.replace(/^--no-/, '--')) || options.has(option.replace(/^--/, '--no-'))

beforeAll(async () => {
  await fs.access(builtBin)
  const global = await runTiers(root, ['--help'])
  expect({code: global.code, stderr: global.stderr}).toEqual({code: 0, stderr: ''})
  commands = helpCommands(global.stdout)
  globalOptions = helpOptions(global.stdout)
  const helps = await Promise.all(commands.map((command) => runTiers(root, [command, '--help'])))
  for (const [index, command] of commands.entries()) {
    expect({command, code: helps[index]!.code, stderr: helps[index]!.stderr}).toEqual({command, code: 0, stderr: ''})
    optionsOf.set(command, helpOptions(helps[index]!.stdout))
  }
  for (const file of docs) claims.push(...docClaims(file, await fs.readFile(path.join(root, file), 'utf8')))
})

const where = (claim: Claim): string => `${claim.file}:${claim.line}`

describe('the docs and `--help` agree', () => {
  it('reads the commands and options from help, and claims from both docs', () => {
    // The reading itself: a parse that found nothing would pass everything below.
    expect(commands).toEqual(expect.arrayContaining(['checkpoint', 'respond', 'verify', 'lint', 'init', 'help']))
    expect([...globalOptions]).toEqual(expect.arrayContaining(['--dir', '--json', '--help']))
    expect([...optionsOf.get('lint')!]).toEqual(expect.arrayContaining(['--frail', '--format', '--help']))
    for (const file of docs) expect(claims.filter((claim) => claim.file === file && claim.option).length).toBeGreaterThan(5)
  })

  it('every `tiers <command>` the docs name is a command of `tiers --help`', () => {
    const unknown = claims
      .filter((claim) => claim.command !== null && !commands.includes(claim.command))
      .map((claim) => `${where(claim)}: tiers ${claim.command}`)
    expect(unknown).toEqual([])
  })

  it('every option the docs name is in the help of its command (or of a command, outside a command’s section)', () => {
    const wrong = claims
      .filter((claim) => claim.option && !claim.absent)
      .filter((claim) => {
        if (claim.command === null) return !holds(globalOptions, claim.option!) && ![...optionsOf.values()].some((options) => holds(options, claim.option!))
        return !holds(optionsOf.get(claim.command) ?? new Set(), claim.option!)
      })
      .map((claim) => `${where(claim)}: ${claim.command === null ? '' : `tiers ${claim.command} `}${claim.option}`)
    expect(wrong).toEqual([])
  })

  it('every option the docs say a command does not take is not in its help', () => {
    const absent = claims.filter((claim) => claim.absent)
    expect(absent.length).toBeGreaterThan(0)
    const taken = absent
      .filter((claim) => holds(optionsOf.get(claim.command ?? '') ?? globalOptions, claim.option!))
      .map((claim) => `${where(claim)}: ${claim.option}`)
    expect(taken).toEqual([])
  })

  it('every command of `tiers --help` has its section in the cli readme (`help`: a mention)', async () => {
    const readme = await fs.readFile(path.join(root, cliReadme), 'utf8')
    const sections = new Set([...readme.matchAll(/^#{3,4} `tiers ([a-z][a-z-]*)/gm)].map((match) => match[1]))
    expect(commands.filter((command) => command !== 'help' && !sections.has(command))).toEqual([])
    expect(claims.some((claim) => claim.file === cliReadme && claim.command === 'help')).toBe(true)
  })

  it('every option of each command’s help is documented in the cli readme, for that command or in the options list', () => {
    const documented = claims.filter((claim) => claim.file === cliReadme && claim.option && !claim.absent)
    const missing: string[] = []
    for (const [command, options] of optionsOf) {
      for (const option of options) {
        const found = documented.some((claim) => (claim.command === command || claim.command === null) && holds(new Set([claim.option!]), option))
        if (!found) missing.push(`tiers ${command} ${option}`)
      }
    }
    // The options `tiers --help` lists are in the readme's list of options.
    for (const option of globalOptions)
      if (!documented.some((claim) => claim.option === option && claim.heading === 'Options')) missing.push(`tiers ${option} (Options)`)
    expect(missing).toEqual([])
  })

  it('the commands the docs say take none of `--dir`, `--json` and `--yaml` are exactly those whose help lists none of them', async () => {
    const without = commands.filter((command) => !['--dir', '--json', '--yaml'].some((option) => optionsOf.get(command)!.has(option)))
    expect(without).toEqual(['lint', 'init'])
    const readme = await fs.readFile(path.join(root, 'README.md'), 'utf8')
    const sentence = /;\s+((?:`[a-z-]+`(?:,\s+|\s+and\s+)?)+)\s+take\s+none\s+of\s+them/.exec(readme)
    expect(sentence, 'README.md names the commands that take none of --dir, --json and --yaml').not.toBeNull()
    expect([...sentence![1]!.matchAll(/`([a-z-]+)`/g)].map((match) => match[1])).toEqual(without)
  })
})
