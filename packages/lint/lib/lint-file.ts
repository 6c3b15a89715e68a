import path from 'node:path'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {lintWithEngine} from './engine.js'

/**
 * Messages of one file as `tiers lint` (and the remark CLI) gives them: the
 * project’s own configuration, or the verification-tiers preset where there
 * is none.
 */
export async function lintFile(file: string, text: string): Promise<VFileMessage[]> {
  const cwd = process.cwd()
  const settings = {cwd, files: [], frail: false, quiet: false, silent: false, color: false, detectConfig: true, detectIgnore: false, ignorePatterns: [], format: 'stylish', fix: false, fixDryRun: false} as const
  const [linted] = await lintWithEngine({...settings, files: [], ignorePatterns: []}, {files: [new VFile({path: path.resolve(cwd, file), value: text, cwd})]})
  return linted?.messages ?? []
}
