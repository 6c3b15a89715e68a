import path from 'node:path'
import {remark} from 'remark'
import {engine} from 'unified-engine'
import type {Context} from 'unified-engine'
import {VFile} from 'vfile'
import {remarkParseFast} from './fast-parse.js'
import {toMessageData} from './messages.js'
import type {MessageData} from './messages.js'
import {remarkEngineOptions} from './settings.js'
import type {BatchSettings} from './settings.js'

/** A file to lint: its path (relative to `cwd`) and its text, already read. */
export interface SourceFile {
  path: string
  value: string
}

/** Messages of one linted file, as plain data. */
export interface LintedFile {
  path: string
  messages: MessageData[]
}

/**
 * Lint files as the remark CLI would (same engine, same configuration
 * lookup per file), with the fast parser. Runs in a worker thread or in the
 * calling one.
 */
export function lintBatch(settings: BatchSettings, files: SourceFile[]): Promise<LintedFile[]> {
  return new Promise((resolve, reject) => {
    engine(
      {
        ...remarkEngineOptions(settings),
        processor: remark,
        // Absolute, as the engine resolves relative paths from the process’s folder, not `cwd`.
        files: files.map((file) => new VFile({path: path.resolve(settings.cwd, file.path), value: file.value, cwd: settings.cwd})),
        // The paths were found (and ignore files applied) by the caller.
        detectIgnore: false,
        silentlyIgnore: true,
        plugins: [remarkParseFast]
      },
      (error, _code, context?: Context) => {
        if (error) return reject(error)
        resolve((context?.files ?? []).map((file) => ({path: file.path, messages: file.messages.map(toMessageData)})))
      }
    )
  })
}
