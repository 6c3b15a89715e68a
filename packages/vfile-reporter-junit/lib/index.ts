import path from 'node:path'
import type {VFile} from 'vfile'
import {element, escapeText} from './xml.js'

/** A message of a file, as `vfile` makes it. */
type VFileMessage = VFile['messages'][number]

/** Configuration, as `vfile-reporter`’s where it applies. */
export interface Options {
  /** Leave out files without messages (default: `false`). */
  quiet?: boolean | null | undefined
  /** Report fatal messages only (default: `false`); implies `quiet`. */
  silent?: boolean | null | undefined
  /** Name of the `testsuites` element, such as the tool that linted (optional). */
  name?: string | null | undefined
}

/** The name of the test case of a file without messages, in `vfile-reporter`’s words. */
export const cleanTestCaseName = 'no issues found'

/** A file’s path from the folder it was found from, with `/`; `<stdin>` for a file without a path, as `vfile-reporter` shows it. */
function filePath(file: VFile): string {
  if (!file.path) return '<stdin>'
  return path.relative(file.cwd, path.resolve(file.cwd, file.path)).split(path.sep).join('/')
}

function severityOf(message: VFileMessage): 'error' | 'warning' | 'info' {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'info'
}

/** `3:19-3:25`, `3:19`, or empty without a place, as `vfile-reporter` writes places. */
function placeOf(message: VFileMessage): string {
  const place = message.place
  if (!place) return ''
  if ('start' in place) return `${place.start.line}:${place.start.column}-${place.end.line}:${place.end.column}`
  return `${place.line}:${place.column}`
}

function lineOf(message: VFileMessage): number | undefined {
  const place = message.place
  if (!place) return undefined
  return 'start' in place ? place.start.line : place.line
}

/** A failing test case for a message: named by its place and rule, its reason and docs in the failure. */
function failingCase(name: string, message: VFileMessage): string {
  const place = placeOf(message)
  const rule = [message.ruleId, message.source].filter(Boolean).join(' ')
  const caseName = [place, message.ruleId ?? message.source].filter(Boolean).join(' ') || message.reason
  // The body reads as `vfile-reporter`’s line for the message, then its note and docs.
  const body = [[place, severityOf(message), message.reason, rule].filter(Boolean).join(' '), message.note, message.url].filter(Boolean).join('\n')
  const failure = element(
    'failure',
    [
      ['message', message.reason],
      ['type', severityOf(message)]
    ],
    escapeText(body)
  )
  return element(
    'testcase',
    [
      ['name', caseName],
      ['classname', name],
      ['file', name],
      ['line', lineOf(message)]
    ],
    '\n      ' + failure + '\n    '
  )
}

function testSuite(file: VFile, messages: readonly VFileMessage[]): {xml: string; tests: number; failures: number} {
  const name = filePath(file)
  const cases =
    messages.length > 0
      ? messages.map((message) => failingCase(name, message))
      : [
          element('testcase', [
            ['name', cleanTestCaseName],
            ['classname', name],
            ['file', name]
          ])
        ]
  const attributes = [
    ['name', name],
    ['tests', cases.length],
    ['failures', messages.length],
    ['errors', 0],
    ['skipped', 0]
  ] as const
  return {xml: element('testsuite', attributes, cases.map((each) => '\n    ' + each).join('') + '\n  '), tests: cases.length, failures: messages.length}
}

/**
 * Report `files` as JUnit XML, the shape CI servers read (GitHub actions,
 * GitLab, Jenkins): a `testsuite` per file, a failing `testcase` per message
 * (its `type` the severity: `error`, `warning` or `info`), and one passing
 * test case for a file without messages. Paths are relative to each file’s
 * `cwd`.
 *
 * @returns
 *   The XML document, without a final line ending.
 */
export function reporterJunit(files: readonly VFile[] | VFile, options?: Options | null): string {
  const silent = Boolean(options?.silent)
  const quiet = silent || Boolean(options?.quiet)
  const suites: string[] = []
  let tests = 0
  let failures = 0
  for (const file of (Array.isArray(files) ? files : [files]) as readonly VFile[]) {
    const messages = file.messages.filter((message) => !silent || message.fatal === true)
    if (quiet && messages.length === 0) continue
    const suite = testSuite(file, messages)
    suites.push(suite.xml)
    tests += suite.tests
    failures += suite.failures
  }
  const root = element(
    'testsuites',
    [
      ['name', options?.name ?? undefined],
      ['tests', tests],
      ['failures', failures],
      ['errors', 0]
    ],
    suites.map((suite) => '\n  ' + suite).join('') + '\n'
  )
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + root
}
