import path from 'node:path'
import {FileReadError, formatSize, inputLimits, readInputFile} from '@verification-tiers/runtime'
import {ProjectError} from '../errors.js'
import {fileProblem} from '../problems.js'
import type {ProjectProblem} from '../problems.js'

/**
 * A markdown file of a tool's folder: its text, `undefined` when there is
 * none, `null` when it cannot be read (a problem naming it says why). All
 * files read count against one limit, as Greenlight's contract files do;
 * `tool` names the tool when they are more.
 */
export async function readCountedFile(file: string, budget: {left: number}, dir: string, problems: ProjectProblem[], tool: string): Promise<string | null | undefined> {
  let text: string | undefined
  try {
    text = await readInputFile(file, {limit: inputLimits.markdown})
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error
    problems.push(fileProblem(error))
    return null
  }
  if (text === undefined) return undefined
  budget.left -= Buffer.byteLength(text)
  if (budget.left < 0) {
    throw new ProjectError(dir, `Unexpected ${tool} files of more than ${formatSize(inputLimits.contracts)} in all (at ${path.relative(dir, file)}), expected at most ${formatSize(inputLimits.contracts)}`)
  }
  return text
}
