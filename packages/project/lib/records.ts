import path from 'node:path'

/**
 * What a tool's workflow wrote down of a person's answers for a slice (GSD's
 * UAT files): the agent's transcript, shown beside the slice's checks. It
 * never approves, never changes the tier and never holds the slice: only the
 * person's answer to the gate does.
 */
export interface SliceRecord {
  /** Whose record, as the line names it: `GSD’s UAT record`. */
  what: string
  /** Path as messages show it. */
  file: string
  /** Where it says so (its status line), `null` for the whole file. */
  line: number | null
  /** What it records, short: `3 pass, 1 issue, 2 pending`. */
  says: string
}

/** What a record is, beside what it says: the wording every place that shows one uses. */
const recordDisclaimer = 'the agent’s transcript, not your answer'

/** A record as one line: `GSD’s UAT record (05-UAT.md, the agent’s transcript, not your answer): 3 pass, 1 issue`. */
export function recordLine(record: SliceRecord): string {
  return `${record.what} (${path.basename(record.file)}, ${recordDisclaimer}): ${record.says}`
}
