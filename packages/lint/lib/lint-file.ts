import path from 'node:path'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {checkEngineConfigFiles} from './config-files.js'
import {lintWithEngine} from './engine.js'
import {textLintSettings} from './settings.js'

/** A file already read: its path (from the working folder) and its text. */
export interface FileText {
  path: string
  text: string
}

/**
 * Messages of each file as `tiers lint` (and the remark CLI) gives them: the
 * project’s own configuration, or the verification-tiers preset where there
 * is none. All of them go through one run of the engine, which finds and
 * loads each folder’s configuration once; the map is keyed by absolute path.
 */
export async function lintTexts(files: readonly FileText[]): Promise<Map<string, VFileMessage[]>> {
  const cwd = process.cwd()
  const settings = textLintSettings(cwd)
  const vfiles = files.map((file) => new VFile({path: path.resolve(cwd, file.path), value: file.text, cwd}))
  const messages = new Map(vfiles.map((file) => [file.path, [] as VFileMessage[]]))
  await checkEngineConfigFiles(vfiles.map((file) => file.path))
  for (const linted of files.length > 0 ? await lintWithEngine(settings, {files: vfiles}) : []) {
    messages.set(path.resolve(cwd, linted.path), linted.messages)
  }
  return messages
}
