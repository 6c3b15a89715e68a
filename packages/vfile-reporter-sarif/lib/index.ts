import path from 'node:path'
import type {VFile} from 'vfile'

/** A message of a file, as `vfile` makes it. */
type VFileMessage = VFile['messages'][number]

/** The tool that made the messages, as SARIF’s `tool.driver` names it. */
export interface Tool {
  name: string
  version?: string | undefined
  informationUri?: string | undefined
}

/** Configuration, as `vfile-reporter`’s where it applies. */
export interface Options {
  /** Report fatal messages only (default: `false`): no warnings and no notes. */
  silent?: boolean | null | undefined
  /**
   * Leave out files without messages (default: `false`); a SARIF log lists
   * results, not files, so this changes nothing.
   */
  quiet?: boolean | null | undefined
  /** The tool the log names (default: this reporter). */
  tool?: Tool | null | undefined
}

/** The tool a log names when none is given: the reporter itself. */
export const defaultTool: Tool = {
  name: '@verification-tiers/vfile-reporter-sarif',
  informationUri: 'https://github.com/verification-tiers/verification-tiers/tree/main/packages/vfile-reporter-sarif#readme'
}

/**
 * The rule id of a message with neither `ruleId` nor `source`: the engine’s
 * own (a file that cannot be read, a plugin that cannot be loaded).
 */
export const engineRuleId = 'unified-engine'

interface Rule {
  id: string
  helpUri?: string
}

interface Region {
  startLine: number
  startColumn: number
  endLine?: number
  endColumn?: number
}

function ruleIdOf(message: VFileMessage): string {
  return message.ruleId ?? message.source ?? engineRuleId
}

function levelOf(message: VFileMessage): 'error' | 'warning' | 'note' {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'note'
}

/** A file’s path as a URI reference relative to its `cwd` (`%SRCROOT%`). */
function artifactUri(file: VFile): string {
  return path
    .relative(file.cwd, path.resolve(file.cwd, file.path))
    .split(path.sep)
    .map((segment) => encodeURIComponent(segment))
    .join('/')
}

function regionOf(message: VFileMessage): Region | undefined {
  const place = message.place
  if (!place) return undefined
  if ('start' in place) return {startLine: place.start.line, startColumn: place.start.column, endLine: place.end.line, endColumn: place.end.column}
  return {startLine: place.line, startColumn: place.column}
}

function locationsOf(file: VFile, message: VFileMessage): unknown[] {
  // SARIF places a result in an artifact; a file without a path (standard input) has none to give.
  if (!file.path) return []
  const region = regionOf(message)
  return [{physicalLocation: {artifactLocation: {uri: artifactUri(file), uriBaseId: '%SRCROOT%'}, ...(region ? {region} : {})}}]
}

/**
 * Report `files` as one SARIF 2.1.0 log: one run, the rules of its messages
 * with their docs (`url` as `helpUri`), and a result per message at its
 * region. Paths are URI references relative to each file’s `cwd`
 * (`%SRCROOT%`).
 *
 * @returns
 *   The log as JSON, indented with two spaces, without a final line ending.
 */
export function reporterSarif(files: readonly VFile[] | VFile, options?: Options | null): string {
  const silent = Boolean(options?.silent)
  const rules: Rule[] = []
  const ruleIndex = new Map<string, number>()
  const results: unknown[] = []
  for (const file of (Array.isArray(files) ? files : [files]) as readonly VFile[]) {
    for (const message of file.messages) {
      if (silent && message.fatal !== true) continue
      const id = ruleIdOf(message)
      let index = ruleIndex.get(id)
      if (index === undefined) {
        index = rules.length
        ruleIndex.set(id, index)
        rules.push(message.url ? {id, helpUri: message.url} : {id})
      }
      results.push({ruleId: id, ruleIndex: index, level: levelOf(message), message: {text: message.reason}, locations: locationsOf(file, message)})
    }
  }
  const {name, version, informationUri} = options?.tool ?? defaultTool
  const driver = {name, ...(version === undefined ? {} : {version}), ...(informationUri === undefined ? {} : {informationUri}), rules}
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{tool: {driver}, results}]
  }
  return JSON.stringify(log, undefined, 2)
}
