/** A line and column in a file, both from 1. */
export interface FilePlace {
  line: number
  column: number
}

/**
 * A file that cannot be read or used as it is: its `file` is named in the
 * message, with the line and column when the fault has a place
 * (`config.json:3:15: Unexpected …`).
 */
export class FileReadError extends Error {
  constructor(
    readonly file: string,
    /** What is wrong, without the file and place: `Unexpected …, expected …`. */
    readonly reason: string,
    readonly place: FilePlace | null = null
  ) {
    super(`${place ? `${file}:${place.line}:${place.column}` : file}: ${reason}`)
    this.name = 'FileReadError'
  }
}
