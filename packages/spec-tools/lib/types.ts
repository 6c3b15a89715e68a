import type {Contract} from '@verification-tiers/contracts'

/** Something in a tool's file that was seen and not read, or not as its authors expect: one line of a message. */
export interface FileProblem {
  /** Path as messages show it. */
  file: string
  /** 1-based line, or `null` when the problem is the whole file. */
  line: number | null
  /** One line, without the file: `Unexpected …, expected …`. */
  message: string
}

/** A contract read from a tool's file, with the file it is in and its text as written. */
export interface FileContract {
  contract: Contract
  /** Path as messages show it. */
  file: string
  source: string
}
