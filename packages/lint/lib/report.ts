import {readFileSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {repositoryUrl} from '@verification-tiers/lint-rule/url'
import reporterGithub from '@verification-tiers/vfile-reporter-github'
import reporterJunit from '@verification-tiers/vfile-reporter-junit'
import reporterSarif from '@verification-tiers/vfile-reporter-sarif'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {reporter} from 'vfile-reporter'
import {reporterJson} from 'vfile-reporter-json'
import writeFileAtomic from 'write-file-atomic'
import type {LintSettings} from './settings.js'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string}

/** The tool that SARIF and JUnit reports name. */
const toolName = 'tiers lint'

/** A report, and the stream it belongs on: the remark CLI’s report on stderr, machine formats on stdout. */
export interface Report {
  stream: 'stdout' | 'stderr'
  text: string
}

/** What unified-engine writes for a reporter: its text, ending in a line ending unless empty. */
function asWritten(text: string): string {
  return text && !text.endsWith('\n') ? text + '\n' : text
}

/** The report of `files` in the format asked for, with the remark CLI’s options. */
export function formatReport(files: VFile[], settings: Pick<LintSettings, 'format' | 'color' | 'quiet' | 'silent' | 'outputFile'>): Report {
  const {quiet, silent} = settings
  switch (settings.format) {
    case 'github':
      return {stream: 'stdout', text: asWritten(reporterGithub(files, {silent}))}
    case 'sarif':
      return {
        stream: 'stdout',
        text: asWritten(reporterSarif(files, {silent, tool: {name: toolName, version: manifest.version, informationUri: repositoryUrl}}))
      }
    case 'junit':
      return {stream: 'stdout', text: asWritten(reporterJunit(files, {quiet, silent, name: toolName}))}
    case 'json':
      return {stream: 'stdout', text: asWritten(reporterJson(files.map(withoutAncestors), {quiet, silent}))}
    case 'stylish':
      // A file is read later, elsewhere: no colour codes in it.
      return {stream: 'stderr', text: asWritten(reporter(files, {color: settings.color && settings.outputFile === undefined, quiet, silent}))}
  }
}

/** Why a file could not be written, without the temporary file’s name that Node’s message carries. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  // `mkdir` answers `EEXIST` when a file stands where a folder of the path should be.
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'Unexpected file in its path, expected folders'
  if (code === 'EISDIR') return 'Unexpected folder, expected a file'
  const message = error instanceof Error ? error.message : String(error)
  return /^E[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message
}

/**
 * Write a report to `file` (from `cwd`), creating its folder, atomically: a
 * reader never sees half a report. Rejects with one line naming the file.
 */
export async function writeReport(file: string, text: string, cwd: string): Promise<void> {
  const absolute = path.resolve(cwd, file)
  try {
    await mkdir(path.dirname(absolute), {recursive: true})
    await writeFileAtomic(absolute, text)
  } catch (error) {
    throw new Error(`could not write the report to ${file}: ${reasonOf(error)}`, {cause: error})
  }
}

/**
 * A file whose messages leave out `ancestors`: they are the tree’s own
 * nodes, which the JSON report would print whole, and which a run the cache
 * answers does not have (it keeps the messages, not the trees).
 */
function withoutAncestors(file: VFile): VFile {
  if (!file.messages.some((message) => message.ancestors !== undefined)) return file
  const copy = new VFile({path: file.path, cwd: file.cwd, value: file.value})
  copy.messages = file.messages.map((message) => {
    const bare = Object.assign(Object.create(Object.getPrototypeOf(message) as object) as VFileMessage, message)
    delete bare.ancestors
    return bare
  })
  return copy
}
