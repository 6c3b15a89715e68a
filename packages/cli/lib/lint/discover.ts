import type {Root} from 'mdast'
import {unified} from 'unified'
import type {Plugin, Processor} from 'unified'
import {engine} from 'unified-engine'
import type {Context} from 'unified-engine'
import type {VFile} from 'vfile'
import {remarkEngineOptions} from './settings.js'
import type {LintSettings} from './settings.js'

/** A parser that reads nothing: discovery needs the files, not their trees. */
const parseNothing: Plugin<[], string, Root> = function () {
  ;(this as unknown as Processor<Root>).parser = () => ({type: 'root', children: []})
}

/**
 * The files the remark CLI would process for `settings.files`: folders
 * expanded to markdown files, globs, `.remarkignore`, `--ignore-path` and
 * `--ignore-pattern` applied, each file read. Files that failed (missing,
 * unreadable, given but ignored) carry the remark CLI’s fatal message.
 */
export function discoverFiles(settings: LintSettings): Promise<VFile[]> {
  return new Promise((resolve, reject) => {
    engine(
      {
        ...remarkEngineOptions(settings),
        processor: unified().use(parseNothing),
        files: settings.files,
        detectConfig: false,
        detectIgnore: settings.detectIgnore,
        ignorePath: settings.ignorePath,
        ignorePatterns: settings.ignorePatterns
      },
      (error, _code, context?: Context) => {
        if (error) return reject(error)
        resolve((context?.files ?? []).filter((file) => file.data.unifiedEngineGiven && !file.data.unifiedEngineIgnored))
      }
    )
  })
}
