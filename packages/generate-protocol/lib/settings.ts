import {readFile} from 'node:fs/promises'
import {rejectionThreshold} from '@verification-tiers/protocol'
import {findNodeAtLocation, parseTree, printParseErrorCode} from 'jsonc-parser'
import type {Node, ParseError} from 'jsonc-parser'

/** The settings of a project that change its protocol docs. */
export interface ProjectSettings {
  /** Rejections of one slice before the escalation (`workflow.rejection_threshold`). */
  rejectionThreshold: number
}

/** A settings file that cannot be used: its message is `file:line:column: reason`. */
export class SettingsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string
  ) {
    super(`${file}:${line}:${column}: ${reason}`)
    this.name = 'SettingsError'
  }
}

/** The protocol's own settings, for a project that sets none. */
export const defaultSettings: ProjectSettings = {rejectionThreshold}

const expectedBy: Record<string, string> = {
  InvalidSymbol: 'a value',
  InvalidNumberFormat: 'a number',
  PropertyNameExpected: 'a property name in double quotes',
  ValueExpected: 'a value',
  ColonExpected: '`:` after the property name',
  CommaExpected: '`,` between entries',
  CloseBraceExpected: '`}`',
  CloseBracketExpected: '`]`',
  EndOfFileExpected: 'the end of the file',
  InvalidCommentToken: 'JSON, which has no comments',
  UnexpectedEndOfComment: 'JSON, which has no comments',
  UnexpectedEndOfString: 'a closing `"`',
  UnexpectedEndOfNumber: 'a digit',
  InvalidUnicode: 'a `\\u` escape with four hex digits',
  InvalidEscapeCharacter: 'a valid escape',
  InvalidCharacter: 'an escaped control character'
}

/**
 * Read a project's `config.json` (as `tiers` reads it) for the settings its
 * docs show; `null` when there is none. `label` is how messages name
 * the file. Only what the docs use is checked, with `tiers`' rules: the file
 * an object, `workflow` an object, `workflow.rejection_threshold` a whole
 * number of 1 or more. Anything else is a `SettingsError` at the value's line
 * and column; other keys belong to other tools.
 */
export async function readProjectSettings(file: string, label = file): Promise<ProjectSettings | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (code === 'EISDIR') throw new SettingsError(label, 1, 1, 'Unexpected folder, expected a JSON file of settings')
    throw error
  }
  return parseProjectSettings(text, label)
}

/** Parse and check the text of a `config.json` (see `readProjectSettings`). */
export function parseProjectSettings(text: string, label: string): ProjectSettings {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  const fail = (offset: number, reason: string) => {
    const {line, column} = place(body, offset)
    return new SettingsError(label, line, column, reason)
  }
  const errors: ParseError[] = []
  const tree = parseTree(body, errors, {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false})
  const [error] = errors
  if (error) throw fail(error.offset, `Unexpected ${found(body, error.offset)}, expected ${expectedBy[printParseErrorCode(error.error)] ?? 'JSON'}`)
  if (!tree) throw fail(0, 'Unexpected empty file, expected an object of settings')
  if (tree.type !== 'object') {
    throw fail(tree.offset, `Unexpected ${describe(tree)}, expected an object of settings, such as \`{"workflow": {"rejection_threshold": 3}}\``)
  }
  const workflow = findNodeAtLocation(tree, ['workflow'])
  if (!workflow) return {...defaultSettings}
  if (workflow.type !== 'object') {
    throw fail(workflow.offset, `Unexpected \`workflow\` ${describe(workflow)}, expected an object, such as \`{"rejection_threshold": 3}\``)
  }
  const threshold = findNodeAtLocation(tree, ['workflow', 'rejection_threshold'])
  if (!threshold) return {...defaultSettings}
  const value: unknown = threshold.value
  if (!(threshold.type === 'number' && typeof value === 'number' && Number.isSafeInteger(value) && value >= 1)) {
    throw fail(threshold.offset, `Unexpected \`workflow.rejection_threshold\` ${body.slice(threshold.offset, threshold.offset + threshold.length)}, expected a whole number of 1 or more`)
  }
  return {rejectionThreshold: value}
}

/** Line and column (from 1) of an offset. */
function place(text: string, offset: number): {line: number; column: number} {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/)
  return {line: before.length, column: before[before.length - 1]!.length + 1}
}

/** What stands at an offset, as a message names it. */
function found(text: string, offset: number): string {
  if (offset >= text.length) return 'end of file'
  const token = /^(?:"(?:[^"\\\n]|\\.){0,20}"?|[\w.+-]{1,20}|\/[/*]|\S)/.exec(text.slice(offset))?.[0] ?? text[offset]!
  return `\`${token}\``
}

/** A JSON value as messages name it: `` `null` ``, `` number `5` ``, `list`. */
function describe(node: Node): string {
  if (node.type === 'null' || node.type === 'boolean') return `\`${String(node.value)}\``
  if (node.type === 'array') return 'list'
  if (node.type === 'object') return 'object'
  const json = JSON.stringify(node.value)
  return `${node.type} \`${json.length > 40 ? `${json.slice(0, 39)}…` : json}\``
}
