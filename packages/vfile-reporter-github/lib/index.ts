import path from 'node:path'
import type {VFile} from 'vfile'

/** A message of a file, as `vfile` makes it. */
type VFileMessage = VFile['messages'][number]

/** Configuration, as `vfile-reporter`’s where it applies. */
export interface Options {
  /**
   * Report fatal messages only (default: `false`): no warnings and no
   * notices.
   */
  silent?: boolean | null | undefined
  /**
   * Leave out files without messages (default: `false`); a file without
   * messages has no annotation anyway, so this changes nothing.
   */
  quiet?: boolean | null | undefined
}

/** A GitHub workflow command that makes an annotation. */
export type Command = 'error' | 'warning' | 'notice'

// Workflow commands read `%`, CR and LF as escapes in data, and `:` and `,`
// too in properties (as `@actions/core` escapes them).
function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** `error` for fatal messages, `warning` for warnings, `notice` for the rest, as GitHub names them. */
function commandOf(message: VFileMessage): Command {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'notice'
}

/** A file’s path from the folder it was found from, with `/`: where GitHub puts the annotation. */
function filePath(file: VFile): string | undefined {
  if (!file.path) return undefined
  return path.relative(file.cwd, path.resolve(file.cwd, file.path)).split(path.sep).join('/')
}

/** One workflow command for a message: an annotation on the file, at its lines and columns, titled with its rule. */
function annotation(file: VFile, message: VFileMessage): string {
  const properties: Array<[string, string | number]> = []
  const name = filePath(file)
  if (name !== undefined) properties.push(['file', name])
  const place = message.place
  if (place && 'start' in place) {
    properties.push(['line', place.start.line], ['col', place.start.column], ['endLine', place.end.line], ['endColumn', place.end.column])
  } else if (place) {
    properties.push(['line', place.line], ['col', place.column])
  }
  const title = message.ruleId ?? message.source
  if (title) properties.push(['title', title])
  const list = properties.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(',')
  return `::${commandOf(message)}${list ? ' ' + list : ''}::${escapeData(message.reason)}`
}

/**
 * Report `files` as GitHub Actions workflow commands: one annotation per
 * message (`::warning file=…,line=…,col=…,endLine=…,endColumn=…,title=…::…`),
 * so that each shows on the pull request at its place. Paths are relative to
 * each file’s `cwd`.
 *
 * @returns
 *   One command per line, without a final line ending; empty when there is
 *   nothing to report.
 */
export function reporterGithub(files: readonly VFile[] | VFile, options?: Options | null): string {
  const silent = Boolean(options?.silent)
  const lines: string[] = []
  for (const file of (Array.isArray(files) ? files : [files]) as readonly VFile[]) {
    for (const message of file.messages) {
      if (silent && message.fatal !== true) continue
      lines.push(annotation(file, message))
    }
  }
  return lines.join('\n')
}
