/**
 * `tiers status` for a person at a terminal: an aligned table, the name cut
 * to fit the width, the last activity as a relative time, totals at the
 * end. Pure: the width and the time of “now” are arguments, so the same
 * rows always give the same text.
 */
import {printable} from './printable.js'
import {displayWidth, pad, truncate, wrap} from './text-width.js'

/** One slice as the table shows it. */
export interface StatusRow {
  slice: string
  name: string
  tier: string
  /** Its decision (`approved`, `approved (stale)`), or `undecided`. */
  state: string
  /** `1/3`: rejections of the threshold. */
  rejections: string
  /** ISO time of the latest thing recorded for the slice (a run, a reply, a route, a decision), `null` when none. */
  lastActivity: string | null
  /** What it waits for: `verify`, `checkpoint`, `route`, `escalation`, `done`, `nothing`. */
  next: string
  /** In progress by the judgement the stop hook holds on (`null`: it could not be judged). */
  inProgress: boolean | null
  /** What else a person should know (open tasks, nothing to check), shown under the table, grouped by title. */
  notes: StatusNote[]
}

/** A note on a slice: `Open tasks` `2`, `Nothing to check (…)` `C-01 Name, C-02 Name`. */
export interface StatusNote {
  title: string
  detail: string
}

export interface TableOptions {
  /** Columns of the terminal (80 when unknown). */
  width: number
  /** The time relative times are counted from. */
  now: Date
}

const headers = {slice: 'SLICE', name: 'NAME', tier: 'TIER', state: 'STATE', rejections: 'REJECTED', last: 'LAST ACTIVITY', next: 'NEXT'}
const gap = '  '
/** The least room the name keeps, however narrow the terminal: a line may then run past it. */
const minNameWidth = 8

/** The table, then one line per note, then the totals. */
export function renderStatusTable(rows: readonly StatusRow[], {width, now}: TableOptions): string {
  const cells = rows.map((row) => ({
    slice: printable(row.slice),
    name: printable(row.name),
    tier: row.tier,
    state: row.state,
    rejections: row.rejections,
    last: row.lastActivity === null ? '–' : relativeTime(row.lastActivity, now),
    next: row.next
  }))
  const columns = Object.keys(headers) as Array<keyof typeof headers>
  const widths = Object.fromEntries(
    columns.map((column) => [column, cells.reduce((widest, cell) => Math.max(widest, displayWidth(cell[column])), displayWidth(headers[column]))])
  ) as Record<keyof typeof headers, number>
  const others = columns.filter((column) => column !== 'name').reduce((sum, column) => sum + widths[column], 0) + gap.length * (columns.length - 1)
  widths.name = Math.max(Math.min(widths.name, width - others), Math.min(widths.name, minNameWidth))
  const line = (cell: Record<keyof typeof headers, string>) =>
    columns
      .map((column) => pad(column === 'name' ? truncate(cell[column], widths.name) : cell[column], widths[column]))
      .join(gap)
      .trimEnd()
  return [line(headers), ...cells.map(line), ...renderNotes(rows, width, widths.slice), '', totals(rows)].join('\n')
}

/** Each title once, then the slices it applies to with their detail, wrapped at the width. */
function renderNotes(rows: readonly StatusRow[], width: number, sliceWidth: number): string[] {
  const byTitle = new Map<string, string[]>()
  for (const row of rows) {
    for (const note of row.notes) {
      const lines = byTitle.get(note.title) ?? []
      const slice = pad(printable(row.slice), sliceWidth)
      lines.push(wrap(`  ${slice}  ${printable(note.detail)}`.trimEnd(), ' '.repeat(sliceWidth + 4), width))
      byTitle.set(note.title, lines)
    }
  }
  return [...byTitle].flatMap(([title, lines]) => ['', `${title}:`, ...lines])
}

/** `46 slices: 22 verify, 24 auto; 3 approved, 43 undecided; 44 in progress`. */
export function totals(rows: readonly StatusRow[]): string {
  const count = (key: 'tier' | 'state') => {
    const counts = new Map<string, number>()
    for (const row of rows) counts.set(row[key], (counts.get(row[key]) ?? 0) + 1)
    return [...counts].map(([value, n]) => `${n} ${value}`).join(', ')
  }
  if (rows.length === 0) return '0 slices'
  const inProgress = rows.filter((row) => row.inProgress === true).length
  return `${rows.length} slice${rows.length === 1 ? '' : 's'}: ${count('tier')}; ${count('state')}; ${inProgress} in progress`
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`, then the date (`2026-01-31`) past 30 days. */
export function relativeTime(iso: string, now: Date): string {
  const then = Date.parse(iso)
  if (Number.isNaN(then)) return printable(iso)
  const minutes = Math.floor((now.getTime() - then) / 60_000)
  // A time ahead of the clock (another machine's) is shown as recent, not as the future.
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ago`
  if (minutes < 30 * 24 * 60) return `${Math.floor(minutes / (24 * 60))} d ago`
  return new Date(then).toISOString().slice(0, 10)
}
