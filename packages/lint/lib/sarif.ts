import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {messageRange} from './place.js'

/** The tool as SARIF names it. */
export interface SarifTool {
  name: string
  version: string
  informationUri: string
}

interface SarifRule {
  id: string
  helpUri?: string
}

// Messages without a rule (a file that cannot be read, a configuration that cannot be loaded) come from the engine.
const engineRuleId = 'unified-engine'

function ruleIdOf(message: VFileMessage): string {
  return message.ruleId ?? message.source ?? engineRuleId
}

function level(message: VFileMessage): 'error' | 'warning' | 'note' {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'note'
}

/** A file’s path as a URI reference relative to the folder linted from (`%SRCROOT%`). */
function artifactUri(file: VFile): string {
  return path.relative(file.cwd, file.path).split(path.sep).map(encodeURIComponent).join('/')
}

/**
 * Report as one SARIF 2.1.0 log: one run, its rules with their docs, and a
 * result per message with its region. `silent` keeps fatal messages only.
 */
export function reportSarif(files: readonly VFile[], options: {silent: boolean; tool: SarifTool}): string {
  const rules: SarifRule[] = []
  const ruleIndex = new Map<string, number>()
  const results: unknown[] = []
  for (const file of files) {
    for (const message of file.messages) {
      if (options.silent && message.fatal !== true) continue
      const id = ruleIdOf(message)
      let index = ruleIndex.get(id)
      if (index === undefined) {
        index = rules.length
        ruleIndex.set(id, index)
        rules.push(message.url ? {id, helpUri: message.url} : {id})
      }
      const range = messageRange(message)
      const region = range
        ? {startLine: range.start.line, startColumn: range.start.column, ...(range.end ? {endLine: range.end.line, endColumn: range.end.column} : {})}
        : undefined
      results.push({
        ruleId: id,
        ruleIndex: index,
        level: level(message),
        message: {text: message.reason},
        locations: [{physicalLocation: {artifactLocation: {uri: artifactUri(file), uriBaseId: '%SRCROOT%'}, ...(region ? {region} : {})}}]
      })
    }
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{tool: {driver: {...options.tool, rules}}, results}]
  }
  return JSON.stringify(log, undefined, 2) + '\n'
}
