import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {messageRange} from './place.js'

// Workflow commands read `%`, CR and LF as escapes in data, and `:` and `,` too in properties.
function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** `error` for fatal messages, `warning` for warnings, `notice` for the rest, as GitHub names them. */
function command(message: VFileMessage): 'error' | 'warning' | 'notice' {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'notice'
}

/** One workflow command for a message: an annotation on the file, at its lines and columns, titled with its rule. */
function annotation(file: VFile, message: VFileMessage): string {
  const properties: Array<[string, string | number]> = [['file', path.relative(file.cwd, file.path)]]
  const range = messageRange(message)
  if (range) {
    properties.push(['line', range.start.line], ['col', range.start.column])
    if (range.end) properties.push(['endLine', range.end.line], ['endColumn', range.end.column])
  }
  const title = message.ruleId ?? message.source
  if (title) properties.push(['title', title])
  const list = properties.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(',')
  return `::${command(message)} ${list}::${escapeData(message.reason)}`
}

/**
 * Report as GitHub Actions workflow commands: one annotation per message, so
 * each shows on the pull request at its place. `silent` keeps fatal ones only.
 */
export function reportGithub(files: readonly VFile[], options: {silent: boolean}): string {
  const lines: string[] = []
  for (const file of files) {
    for (const message of file.messages) {
      if (options.silent && message.fatal !== true) continue
      lines.push(annotation(file, message))
    }
  }
  return lines.map((line) => line + '\n').join('')
}
