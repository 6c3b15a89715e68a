/**
 * Read a stylish report (vfile-reporter's, as `remark` and `tiers lint`
 * print it) by file, for tests that lint several scenarios in one run.
 */

/** One file's part of a report: its line (`<file>` or `<file>: no issues found`) and the lines of its messages. */
export interface FilePart {
  file: string
  lines: string[]
}

/** The last line of a report: `⚠ 1 warning`, `✖ 2 errors`, `3 messages (✖ 1 error, ⚠ 2 warnings)`. */
const summary = /^(?:[⚠✖] \d+ (?:warning|error)s?|\d+ messages \(.*\))$/

/** The files of a report in order, each with its lines; the summary (`⚠ 1 warning`, `2 messages (…)`) is no file's. */
export function reportParts(report: string): FilePart[] {
  const parts: FilePart[] = []
  for (const line of report.split('\n')) {
    if (line === '' || summary.test(line)) continue
    // A message starts with its place (`3:19-3:25`, `3:19`) or, without one, with the padding of the place column.
    if (/^(?:\s|\d+:\d+(?:-\d+:\d+)?\s)/.test(line)) {
      parts.at(-1)?.lines.push(line)
      continue
    }
    parts.push({file: line.replace(/: no issues found$/, ''), lines: [line]})
  }
  return parts
}

/** The lines about the files under `folder`, each ending in a line feed; '' when there are none. */
export function reportOn(report: string, folder: string): string {
  return reportParts(report)
    .filter(({file}) => file.startsWith(`${folder}/`))
    .flatMap(({lines}) => lines.map((line) => `${line}\n`))
    .join('')
}

/**
 * Each file's lines, with runs of spaces as one: the reporter pads each
 * column to its widest row in the whole report, so a file's padding depends
 * on the other files of the run.
 */
export function linesByFile(report: string): Record<string, string[]> {
  return Object.fromEntries(reportParts(report).map(({file, lines}) => [file, lines.map((line) => line.replace(/ {2,}/g, ' '))]))
}

/** The report's last line, its summary (`⚠ 1 warning`, `2 messages (✖ 1 error, ⚠ 1 warning)`); '' when it has none. */
export function reportSummary(report: string): string {
  const last = report.trimEnd().split('\n').at(-1) ?? ''
  return summary.test(last) ? last : ''
}
