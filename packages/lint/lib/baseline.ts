import {existsSync} from 'node:fs'
import {lstat, mkdir} from 'node:fs/promises'
import path from 'node:path'
import {parseTree, printParseErrorCode} from 'jsonc-parser'
import type {Node as JsonNode, ParseError} from 'jsonc-parser'
import {VFile} from 'vfile'
import {location} from 'vfile-location'
import type {VFileMessage} from 'vfile-message'
import writeFileAtomic from 'write-file-atomic'
import {FileReadError} from '@verification-tiers/input/read'
import {readLintBaselineText} from './baseline-file.js'

export {defaultLintBaselinePath} from './settings.js'
export {readLintBaselineText} from './baseline-file.js'

/**
 * The warnings accepted as they are today: per file (its path from the
 * baseline's folder, with `/`), per rule (`source:ruleId`), per message
 * reason, how many. No lines: lines move when a file is edited.
 */
export type LintBaseline = Map<string, Map<string, Map<string, number>>>

/** What applying a baseline did. */
export interface BaselineOutcome {
  /** The baseline file, as given. */
  file: string
  /** Warnings left out of the report because the baseline lists them. */
  accepted: number
  /** Warnings the baseline lists that no longer occur (in the files linted, or in files that are gone). */
  unused: number
}

/** The key of a message in a baseline, or `null` for a message a baseline never accepts. */
function ruleOf(message: VFileMessage): string | null {
  // Only warnings of a rule: an error, or a file that could not be linted at all, is always reported.
  if (message.fatal !== false || !message.ruleId) return null
  return message.source ? `${message.source}:${message.ruleId}` : message.ruleId
}

/** A linted file's path as a baseline names it: from the baseline's folder, with `/`. */
function keyOf(file: VFile, folder: string): string {
  return path.relative(folder, path.resolve(file.cwd, file.path)).split(path.sep).join('/')
}

function add(baseline: LintBaseline, file: string, rule: string, reason: string, count = 1): void {
  let rules = baseline.get(file)
  if (!rules) baseline.set(file, (rules = new Map()))
  let reasons = rules.get(rule)
  if (!reasons) rules.set(rule, (reasons = new Map()))
  reasons.set(reason, (reasons.get(reason) ?? 0) + count)
}

/** The baseline of `files` as linted: each warning of a rule, counted; `folder` is the baseline's. */
export function lintBaselineOf(files: readonly VFile[], folder: string): LintBaseline {
  const baseline: LintBaseline = new Map()
  for (const file of files) {
    for (const message of file.messages) {
      const rule = ruleOf(message)
      if (rule) add(baseline, keyOf(file, folder), rule, message.reason)
    }
  }
  return baseline
}

/**
 * `next` (the baseline of the files linted now) with the entries of
 * `previous` for files not linted now that still exist: a run on some
 * files keeps what was accepted in the others, and forgets files that
 * are gone.
 */
export function mergeLintBaseline(previous: LintBaseline | null, next: LintBaseline, linted: readonly VFile[], folder: string): LintBaseline {
  const merged: LintBaseline = new Map(next)
  const seen = new Set(linted.map((file) => keyOf(file, folder)))
  for (const [file, rules] of previous ?? []) {
    if (seen.has(file) || merged.has(file) || !existsSync(path.resolve(folder, file))) continue
    merged.set(file, rules)
  }
  return merged
}

/** How many warnings a baseline accepts, and in how many files. */
export function lintBaselineSize(baseline: LintBaseline): {warnings: number; files: number} {
  let warnings = 0
  for (const rules of baseline.values()) for (const reasons of rules.values()) for (const count of reasons.values()) warnings += count
  return {warnings, files: baseline.size}
}

/**
 * `files` without the warnings `baseline` accepts: a message matched by
 * file, rule and reason, as many times as the baseline counts it; those
 * beyond are kept. The baseline is not changed.
 */
export function applyLintBaseline(files: readonly VFile[], baseline: LintBaseline, folder: string): {files: VFile[]; accepted: number; unused: number} {
  const left = new Map<string, Map<string, Map<string, number>>>()
  for (const [file, rules] of baseline) left.set(file, new Map([...rules].map(([rule, reasons]) => [rule, new Map(reasons)])))
  let accepted = 0
  const linted = new Set<string>()
  const kept = files.map((file) => {
    const key = keyOf(file, folder)
    linted.add(key)
    const rules = left.get(key)
    if (!rules) return file
    const copy = new VFile({path: file.path, cwd: file.cwd, value: file.value})
    for (const message of file.messages) {
      const rule = ruleOf(message)
      const reasons = rule === null ? undefined : rules.get(rule)
      const count = reasons?.get(message.reason) ?? 0
      if (reasons && count > 0) {
        reasons.set(message.reason, count - 1)
        accepted++
      } else copy.messages.push(message)
    }
    return copy
  })
  let unused = 0
  for (const [file, rules] of left) {
    // A file not linted in this run is judged only when it is gone.
    if (!linted.has(file) && existsSync(path.resolve(folder, file))) continue
    for (const reasons of rules.values()) for (const count of reasons.values()) unused += count
  }
  return {files: kept, accepted, unused}
}

/** The baseline as its file holds it: JSON, keys sorted so that a change reads as a small diff. */
export function formatLintBaseline(baseline: LintBaseline): string {
  const sorted = <T>(map: Map<string, T>): Array<[string, T]> => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const data = Object.fromEntries(
    sorted(baseline).map(([file, rules]) => [file, Object.fromEntries(sorted(rules).map(([rule, reasons]) => [rule, Object.fromEntries(sorted(reasons))]))])
  )
  return JSON.stringify(data, undefined, 2) + '\n'
}

/**
 * Read the baseline at `file`; `null` when there is none. A file that is
 * not a regular file, not JSON, or not the shape is a `FileReadError`
 * naming it (and the place, for JSON), never an empty baseline.
 */
export async function readLintBaseline(file: string, shownAs: string = file): Promise<LintBaseline | null> {
  const text = await readLintBaselineText(file, shownAs)
  return text === null ? null : parseLintBaseline(shownAs, text)
}

/** The baseline in `text` (the file `file`); see `readLintBaseline`. */
export function parseLintBaseline(file: string, text: string): LintBaseline {
  const lines = location(text)
  const placeOf = (offset: number) => {
    const point = lines.toPoint(offset)
    return point ? {line: point.line, column: point.column} : null
  }
  const errors: ParseError[] = []
  let tree: JsonNode | undefined
  try {
    tree = parseTree(text, errors, {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false})
  } catch (error) {
    // jsonc-parser builds its tree by recursion: nesting thousands deep exhausts the stack.
    if (!(error instanceof RangeError)) throw error
    throw new FileReadError(file, 'Unexpected nesting too deep to read, expected the JSON `tiers lint --update-baseline` writes', placeOf(0))
  }
  const [first] = errors
  if (first || !tree) {
    const what = first ? printParseErrorCode(first.error) : 'ValueExpected'
    throw new FileReadError(
      file,
      `Unexpected text that is not JSON (${what}), expected the JSON \`tiers lint --update-baseline\` writes`,
      placeOf(first?.offset ?? 0)
    )
  }
  const fail = (node: JsonNode, reason: string): never => {
    throw new FileReadError(file, reason, placeOf(node.offset))
  }
  const entries = (node: JsonNode, expected: string): Array<[string, JsonNode]> => {
    if (node.type !== 'object') fail(node, `Unexpected ${node.type}, expected ${expected}`)
    const seen = new Set<string>()
    return (node.children ?? []).map((property) => {
      const [key, value] = property.children ?? []
      if (!key || !value || typeof key.value !== 'string') return fail(property, `Unexpected property, expected ${expected}`)
      if (key.value === '') fail(key, `Unexpected empty key, expected ${expected}`)
      // JSON.parse would keep the last silently: which count was meant is not ours to guess.
      if (seen.has(key.value)) fail(key, `Unexpected key \`${key.value}\` given twice, expected ${expected}, each once`)
      seen.add(key.value)
      return [key.value, value]
    })
  }
  const baseline: LintBaseline = new Map()
  for (const [name, rules] of entries(tree, 'an object of files (paths from the baseline’s folder)')) {
    for (const [rule, reasons] of entries(rules, `an object of rules (\`source:rule-id\`) for \`${name}\``)) {
      for (const [reason, count] of entries(reasons, `an object of message reasons for \`${rule}\` in \`${name}\``)) {
        if (count.type !== 'number' || !Number.isSafeInteger(count.value) || (count.value as number) < 1) {
          fail(
            count,
            `Unexpected count \`${text.slice(count.offset, count.offset + count.length)}\` for \`${rule}\` in \`${name}\`, expected a whole number of 1 or more`
          )
        }
        add(baseline, name, rule, reason, count.value as number)
      }
    }
  }
  return baseline
}

/** Write `baseline` to `file` atomically, never through a symbolic link. */
export async function writeLintBaseline(file: string, baseline: LintBaseline, shownAs: string = file): Promise<void> {
  // `write-file-atomic` follows links: a link named as the baseline would take the write elsewhere.
  if ((await lstat(file).catch(() => null))?.isSymbolicLink()) {
    throw new FileReadError(shownAs, 'Unexpected symbolic link, expected a regular file: the baseline is never written through a link')
  }
  await mkdir(path.dirname(file), {recursive: true})
  await writeFileAtomic(file, formatLintBaseline(baseline))
}
