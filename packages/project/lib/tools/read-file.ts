import {FileReadError} from '@verification-tiers/runtime'
import type {ReadBudget} from '../budget.js'
import {fileProblem} from '../problems.js'
import type {ProjectProblem} from '../problems.js'

/**
 * A markdown file of a tool's folder: its text, `undefined` when there is
 * none, `null` when it cannot be read (a problem naming it says why). Every
 * file read counts against the project's limits (`budget`), as Greenlight's
 * contract files do: a project over its total is the budget's
 * `ProjectError`.
 */
export async function readCountedFile(file: string, budget: ReadBudget, problems: ProjectProblem[]): Promise<string | null | undefined> {
  try {
    return await budget.read(file)
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error
    problems.push(fileProblem(error))
    return null
  }
}
