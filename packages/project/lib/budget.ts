import path from 'node:path'
import {formatSize, readInputFile, readLimitCeilings} from '@verification-tiers/runtime'
import type {ReadLimits} from '@verification-tiers/runtime'
import {ProjectError} from './errors.js'

/**
 * What the gate reads of one project, against its limits: each markdown file
 * at most `limits.file` bytes, and every file read, markdown or graph, at
 * most `limits.total` in all. Parsing takes time and memory in proportion to
 * the bytes, and the stop hook reads the whole project at every stop.
 */
export interface ReadBudget {
  /**
   * The text of a markdown file of the project, counted; `undefined` when
   * there is none. A file over the file limit is the `FileReadError` of
   * `readInputFile`, saying what to do (`advice`, or the setting to raise);
   * one that takes the project over its total is a `ProjectError` naming
   * the project folder, the file and the limit.
   */
  read(file: string, advice?: string): Promise<string | undefined>
  /** Count a file read otherwise (`GRAPH.json`): a `ProjectError` when it takes the project over its total. */
  count(file: string, text: string): void
}

/**
 * The budget of the project in `dir`, whose settings file (`config.json`,
 * `tiers.json`) is named `settings` in what a message says to raise.
 */
export function openBudget(dir: string, limits: ReadLimits, settings: string): ReadBudget {
  let spent = 0
  const raise = (key: keyof typeof readLimitCeilings) => `raise \`limits.${key}\` in ${settings} (${readLimitCeilings[key]} at most)`
  const count = (file: string, text: string) => {
    spent += Buffer.byteLength(text)
    if (spent <= limits.total) return
    const limit = formatSize(limits.total)
    throw new ProjectError(
      dir,
      `Unexpected files of more than ${limit} in all for tiers to read (at ${path.relative(dir, file)}), expected at most ${limit}: fewer or smaller files, or ${raise('total_mib')}`
    )
  }
  return {
    async read(file, advice) {
      const text = await readInputFile(file, {limit: limits.file, advice: advice ? `${advice}, or ${raise('file_mib')}` : raise('file_mib')})
      if (text !== undefined) count(file, text)
      return text
    },
    count
  }
}
