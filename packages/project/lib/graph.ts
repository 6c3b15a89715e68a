import {isTier, normalizeContractId, parseSliceHeading, readTier} from '@verification-tiers/contracts/terms'
import type {Tier} from '@verification-tiers/contracts'
import {IdError, isSliceId} from '@verification-tiers/runtime'
import {ProjectError} from './errors.js'

/** One slice of a project’s graph: its contracts, and the tier it states, if any. */
export interface GraphSlice {
  id: string
  name: string
  /** Contract ids in the graph’s order, written `C-NN`. */
  contracts: string[]
  /** The tier the graph states for the slice; contracts without a tier of their own take it. */
  tier: Tier | null
}

/**
 * What contract ids are matched by: any case, with or without the hyphen,
 * whatever leading zeros (`C5`, `c-05` and `C-005` are all `C-5`).
 */
export function contractKey(id: string): string {
  const match = /^C-?0*(\d+)$/i.exec(id.trim())
  return match ? `C-${match[1]}` : id.trim().toUpperCase()
}

/**
 * A slice id read from a project file, or a `ProjectError` naming the file
 * (`where` is `file` or `file:line`) and the id: state files are named by
 * slice ids, so `../x` must never become one.
 */
export function checkSliceId(id: string, where: string): string {
  if (!isSliceId(id)) throw new ProjectError(where, new IdError('slice', id).message)
  return id
}

/**
 * Slices of a parsed `GRAPH.json`: `{"slices": {"S-01": {"name", "contracts", "verification"?}}}`.
 * With the file’s `text`, a bad slice id is reported with its line.
 */
export function readGraphJson(graph: unknown, file: string, text?: string): GraphSlice[] {
  const slices = (graph as {slices?: unknown} | null)?.slices
  if (typeof slices !== 'object' || slices === null || Array.isArray(slices)) {
    throw new ProjectError(file, 'Unexpected content, expected an object with `slices`')
  }
  return Object.entries(slices as Record<string, unknown>).map(([id, value]) => {
    if (!isSliceId(id)) {
      const line = text === undefined ? null : keyLine(text, id)
      checkSliceId(id, line === null ? file : `${file}:${line}`)
    }
    const entry = value as {name?: unknown; contracts?: unknown; verification?: unknown}
    if (typeof entry !== 'object' || entry === null || !Array.isArray(entry.contracts) || !entry.contracts.every((item) => typeof item === 'string')) {
      throw new ProjectError(file, `Unexpected \`slices.${id}\`, expected \`{"name": "…", "contracts": ["C-01", …]}\``)
    }
    let tier: Tier | null = null
    if (entry.verification !== undefined) {
      if (typeof entry.verification !== 'string' || !isTier(readTier(entry.verification))) {
        throw new ProjectError(file, `Unexpected \`slices.${id}.verification\` ${JSON.stringify(entry.verification)}, expected \`auto\` or \`verify\``)
      }
      tier = readTier(entry.verification) as Tier
    }
    return {id, name: typeof entry.name === 'string' ? entry.name : id, contracts: (entry.contracts as string[]).map(normalizeContractId), tier}
  })
}

/**
 * The line of `key` as a key inside `slices` of a GRAPH.json’s text, or
 * `null` when it is not written as `JSON.stringify` writes it.
 */
function keyLine(text: string, key: string): number | null {
  const slices = /"slices"\s*:/.exec(text)
  if (!slices) return null
  const pattern = new RegExp(JSON.stringify(key).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') + '\\s*:', 'g')
  pattern.lastIndex = slices.index + slices[0].length
  const found = pattern.exec(text)
  return found ? text.slice(0, found.index).split('\n').length : null
}

/** A list item: its marker’s indent, the indent of its content, and its text. */
interface ListItem {
  indent: number
  content: number
  text: string
}

/** An open code fence: its character, length and indent. */
interface Fence {
  char: string
  length: number
  indent: number
}

/** A list of contract ids after an empty `Contracts:`: its items’ indent (`null` before the first), the current item’s content indent, and whether a blank line came since the last line of it. */
interface ContractList {
  indent: number | null
  content: number
  blank: boolean
}

// `Contracts: C-01, C-02` (maybe as a list item) or `Verification: auto`, plain or bold.
const fieldLine = /^\s*(?:([-*+]|\d{1,9}[.)])\s+)?(?:\*\*|__)?(contracts|verification)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$/i
const contractIdToken = /^C-?\d+$/i
const listItem = /^(\s*)([-*+]|\d{1,9}[.)])(?:(\s+)(.*))?$/
const headingLine = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/
const thematicBreak = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const fenceOpen = /^\s*(`{3,}|~{3,})(.*)$/
const fenceClose = /^\s*(`{3,}|~{3,})\s*$/

/**
 * Slices of a `GRAPH.md`: one heading per slice (`## S-01: Name`, link,
 * emphasis and code markup ignored), its contracts on a
 * `Contracts: C-01, C-02` line or in a list after an empty `Contracts:`, and
 * optionally a plain or bold `Verification: auto` line for the slice. Lines
 * in fenced or indented code and in HTML comments are not read.
 */
export function readGraphMarkdown(text: string, file: string): GraphSlice[] {
  const slices: Array<GraphSlice & {depth: number; line: number}> = []
  const seen = new Map<string, number>()
  let current: (GraphSlice & {depth: number; line: number}) | null = null
  let fence: Fence | null = null
  let comment = false
  let code = false
  let list = false
  let previous: 'blank' | 'text' | 'other' = 'blank'
  let listing: ContractList | null = null
  for (const [index, raw] of text.split(/\r\n?|\n/).entries()) {
    const where = `${file}:${index + 1}`
    if (fence !== null) {
      const close = fenceClose.exec(raw)
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && indentOf(raw) <= fence.indent + 3) {
        fence = null
        previous = 'other'
      }
      continue
    }
    let line = raw
    if (comment) {
      // The rest of an HTML comment: nothing up to its `-->` is read.
      const end = raw.indexOf('-->')
      if (end === -1) continue
      comment = false
      line = raw.slice(end + 3).trimStart()
      if (line === '') {
        previous = 'other'
        continue
      }
    }
    const indent = indentOf(line)
    const blank = line.trim() === ''
    if (code) {
      if (blank || indent >= 4) continue
      code = false
    }
    if (blank) {
      previous = 'blank'
      if (listing) listing.blank = true
      continue
    }
    // Indented code: 4 spaces or more, outside a list, not continuing a paragraph.
    if (indent >= 4 && !list && previous !== 'text') {
      code = true
      listing = null
      continue
    }
    const open = fenceOpen.exec(line)
    if (open && (indent <= 3 || list) && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = {char: open[1]![0]!, length: open[1]!.length, indent}
      if (listing && (listing.indent === null || indent < listing.content)) listing = null
      if (list && previous === 'blank' && indent < 2) list = false
      previous = 'other'
      continue
    }
    if (line.includes('<!--')) {
      const stripped = withoutComments(line)
      comment = stripped.open
      if (stripped.text.trim() === '') {
        if (/^\s*<!--/.test(line)) previous = 'other'
        continue
      }
      line = stripped.text
    }
    const heading = headingLine.exec(line)
    if (heading) {
      list = false
      listing = null
      previous = 'other'
      const depth = heading[1]!.length
      const slice = parseSliceHeading(plainText(heading[2] ?? ''))
      if (slice) {
        checkSliceId(slice.id, where)
        const first = seen.get(slice.id.toLowerCase())
        if (first !== undefined) {
          throw new ProjectError(where, `Unexpected second heading for slice ${slice.id} (the first is at line ${first}), expected one heading per slice`)
        }
        seen.set(slice.id.toLowerCase(), index + 1)
        current = {...slice, name: slice.name || slice.id, contracts: [], tier: null, depth, line: index + 1}
        slices.push(current)
      } else if (current && depth <= current.depth) {
        current = null
      }
      continue
    }
    if (thematicBreak.test(line)) {
      list = false
      listing = null
      previous = 'other'
      continue
    }
    const item = readListItem(line)
    if (item) list = true
    else if (list && previous === 'blank' && indent < 2) list = false
    const lazy = previous === 'text'
    previous = 'text'
    if (!current) continue
    const field = fieldLine.exec(line)
    if (listing) {
      if (item && listing.indent === null) {
        listing.indent = item.indent
      }
      if (listing.indent !== null) {
        if (item && item.indent >= listing.indent) {
          // An item of the list gives its first token; a nested item is part of the one it is in.
          if (item.indent < listing.content || item.indent === listing.indent) {
            listing.content = item.content
            const id = itemContract(item.text, current.id, where)
            if (id !== null) current.contracts.push(id)
          }
          listing.blank = false
          continue
        }
        // The rest of an item: its indented lines, and lines straight after it that are no field.
        if (!item && (indent >= listing.content || (lazy && !listing.blank && !field))) {
          listing.blank = false
          continue
        }
      }
      listing = null
    }
    if (!field) continue
    if (field[2]!.toLowerCase() === 'verification') {
      // A list item or a line inside one is prose (`- Verification: the user hears the alarm`).
      if (field[1] !== undefined || (list && indent > 0)) continue
      const value = field[3]!.replace(/(?:\*\*|__)$/, '').trim()
      const tier = readTier(value)
      if (!isTier(tier)) throw new ProjectError(where, `Unexpected slice tier \`${value}\` for ${current.id}, expected \`auto\` or \`verify\``)
      current.tier = tier
    } else {
      const ids = lineContracts(field[3]!, current.id, where)
      if (ids.length === 0) listing = {indent: null, content: 0, blank: false}
      current.contracts.push(...ids)
    }
  }
  if (slices.length === 0) throw new ProjectError(file, 'Unexpected graph without slices, expected `## S-01: Name` headings, each with a `Contracts: C-01, C-02` line')
  for (const slice of slices) {
    if (slice.contracts.length === 0) {
      throw new ProjectError(`${file}:${slice.line}`, `Unexpected slice ${slice.id} without contracts, expected a \`Contracts: C-01, C-02\` line or a list of contract ids after \`Contracts:\``)
    }
  }
  return slices.map(({id, name, contracts, tier}) => ({id, name, contracts: uniqueContracts(contracts), tier}))
}

/** Contract ids without repeats, leading zeros aside (`C-01` and `C1` are one), each as first written. */
function uniqueContracts(ids: string[]): string[] {
  const keys = new Set<string>()
  return ids.filter((id) => {
    const key = contractKey(id)
    if (keys.has(key)) return false
    keys.add(key)
    return true
  })
}

/**
 * The contract ids of a `Contracts:` line’s `value`: parenthesised notes
 * dropped, every other comma- or space-separated token a contract id, else a
 * `ProjectError` naming the first one that is not.
 */
function lineContracts(value: string, slice: string, where: string): string[] {
  let text = plainText(value)
  for (let before = ''; before !== text; ) {
    before = text
    text = text.replace(/\([^()]*\)/g, ' ')
  }
  const ids: string[] = []
  for (const token of text.trim().replace(/\.$/, '').split(/[\s,]+/)) {
    if (token === '') continue
    if (!contractIdToken.test(token)) {
      throw new ProjectError(where, `Unexpected \`${token}\` in the contracts of ${slice}, expected contract ids separated by commas`)
    }
    ids.push(normalizeContractId(token))
  }
  return ids
}

/** The contract id an item of a contracts list starts with (the rest is a note), `null` for an empty item, else a `ProjectError`. */
function itemContract(text: string, slice: string, where: string): string | null {
  const token = (plainText(text.replace(/^\[[ xX]\]\s+/, '')).trim().split(/\s+/)[0] ?? '').replace(/[:.,;]+$/, '')
  if (token === '') return null
  if (!contractIdToken.test(token)) {
    throw new ProjectError(where, `Unexpected \`${token}\` in the contracts of ${slice}, expected a contract id at the start of each list item`)
  }
  return normalizeContractId(token)
}

/** A list item’s marker indent, content indent and text, or `null`. */
function readListItem(line: string): ListItem | null {
  const match = listItem.exec(line)
  if (!match) return null
  const indent = indentOf(match[1]!)
  const marker = indent + match[2]!.length
  const spaces = match[3] === undefined ? 1 : indentOf(' '.repeat(marker) + match[3]) - marker
  // Five spaces or more after the marker: the content starts one space after it (the rest is indented code).
  return {indent, content: marker + (spaces > 4 ? 1 : spaces), text: match[4] ?? ''}
}

/** Columns of leading white space, tabs to the next multiple of 4. */
function indentOf(line: string): number {
  let column = 0
  for (const char of line) {
    if (char === ' ') column += 1
    else if (char === '\t') column += 4 - (column % 4)
    else break
  }
  return column
}

/** Inline text without its link, emphasis, strikethrough and code markup: `[S-02: Name](x.md)`, `**S-02: Name**`, `` `S-02`: Name `` read as `S-02: Name`. */
function plainText(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])?/g, '$1')
    .replace(/`+/g, '')
    .replace(/\*+|~~/g, '')
    .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
}

/** A line without its HTML comments (`<!--` inside inline code is text), and whether a comment is still open at its end. */
function withoutComments(line: string): {text: string; open: boolean} {
  let text = ''
  let from = 0
  for (;;) {
    const start = commentStart(line, from)
    if (start === -1) return {text: text + line.slice(from), open: false}
    text += line.slice(from, start)
    const end = line.indexOf('-->', start + 4)
    if (end === -1) return {text, open: true}
    if (text.trim() !== '') text += ' '
    from = end + 3
  }
}

/** Where `<!--` starts in `line` from `from` on, outside inline code, or -1. */
function commentStart(line: string, from: number): number {
  let index = from
  for (;;) {
    const open = line.indexOf('<!--', index)
    const tick = line.indexOf('`', index)
    if (open === -1 || tick === -1 || open < tick) return open
    const run = /^`+/.exec(line.slice(tick))![0].length
    const closing = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, 'g')
    closing.lastIndex = tick + run
    const close = closing.exec(line)
    // A run of backticks that no run of the same length closes is text.
    index = close ? close.index + run : tick + run
  }
}
