import type {FileReadError} from '@verification-tiers/runtime'

/**
 * Something in the project the gate could not read, match or prove: a line
 * that looks like a contract or a slice but was not read as one, a graph
 * entry that matches no contract, a verify contract in no slice, a contract
 * file the loader skips. Each counts against the stop and against a passing
 * checkpoint.
 */
export interface ProjectProblem {
  /** Path as messages show it. */
  file: string
  /** 1-based line, or `null` when the problem is the whole file. */
  line: number | null
  /** One line, without the file: `Unexpected …, expected …`. */
  message: string
}

/** A problem as one line: `file:line: message`. */
export function formatProblem(problem: ProjectProblem): string {
  return `${problem.line === null ? problem.file : `${problem.file}:${problem.line}`}: ${problem.message}`
}

/** A file that cannot be read as a problem: its file, the line when the error places it, and what is wrong. */
export function fileProblem(error: FileReadError): ProjectProblem {
  return {file: error.file, line: error.place?.line ?? null, message: error.reason}
}
