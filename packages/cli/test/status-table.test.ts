/**
 * `tiers status` at a terminal: the table laid out for the width given, the
 * last activity relative to the `now` given, the notes grouped, the totals.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {relativeTime, renderStatusTable, totals} from '../lib/status-table.js'
import type {StatusRow} from '../lib/status-table.js'
import {displayWidth, truncate} from '../lib/text-width.js'
import {elapsedLine, progressLine} from '../lib/verify-progress.js'

const now = new Date('2026-03-10T12:00:00.000Z')

const row = (overrides: Partial<StatusRow>): StatusRow => ({
  slice: 'S-01',
  name: 'Sign in',
  tier: 'verify',
  state: 'undecided',
  rejections: '0/3',
  lastActivity: null,
  next: 'checkpoint',
  inProgress: true,
  notes: [],
  ...overrides
})

const rows: StatusRow[] = [
  row({lastActivity: '2026-03-10T09:00:00.000Z'}),
  row({slice: 'S-02', name: 'Export the garden log as a spreadsheet for the allotment committee', tier: 'auto', next: 'done', inProgress: false}),
  row({
    slice: 'S-10',
    name: 'Reset',
    state: 'approved (stale)',
    rejections: '1/3',
    lastActivity: '2026-03-08T11:00:00.000Z',
    notes: [{title: 'Nothing to check (verify, no acceptance criteria or steps)', detail: 'C-04 Mail, C-05 Link'}]
  })
]

describe('renderStatusTable', () => {
  it('aligns the columns, cuts the name to the width and ends with the notes and the totals', () => {
    expect(renderStatusTable(rows, {width: 80, now})).toBe(
      [
        'SLICE  NAME        TIER    STATE             REJECTED  LAST ACTIVITY  NEXT',
        'S-01   Sign in     verify  undecided         0/3       3 h ago        checkpoint',
        'S-02   Export th…  auto    undecided         0/3       –              done',
        'S-10   Reset       verify  approved (stale)  1/3       2 d ago        checkpoint',
        '',
        'Nothing to check (verify, no acceptance criteria or steps):',
        '  S-10   C-04 Mail, C-05 Link',
        '',
        '3 slices: 2 verify, 1 auto; 2 undecided, 1 approved (stale); 2 in progress'
      ].join('\n')
    )
  })

  it('gives the name the room a wide terminal has, and no more than it needs', () => {
    const wide = renderStatusTable(rows, {width: 200, now}).split('\n')
    expect(wide[2]).toBe('S-02   Export the garden log as a spreadsheet for the allotment committee  auto    undecided         0/3       –              done')
    expect(wide[1]).toBe(
      'S-01   Sign in                                                             verify  undecided         0/3       3 h ago        checkpoint'
    )
  })

  it('property: at any width from 72 (the other columns and 8 of the name), every line of the table fits, and each slice keeps its row', () => {
    const name = fc.string({unit: fc.constantFrom('a', 'b', ' ', 'é', '記', '録', '-'), maxLength: 90})
    fc.assert(
      fc.property(fc.array(name, {minLength: 1, maxLength: 6}), fc.integer({min: 72, max: 240}), (names, width) => {
        const table = renderStatusTable(
          names.map((each, index) => row({slice: `S-${index + 1}`, name: each})),
          {width, now}
        )
        const lines = table.split('\n')
        for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width)
        for (const [index] of names.entries()) expect(lines[index + 1]?.startsWith(`S-${index + 1} `)).toBe(true)
      })
    )
  })

  it('shows control characters in names as escapes, never raw', () => {
    const table = renderStatusTable([row({name: 'a\u001b[2Kb'})], {width: 80, now})
    expect(table).toContain('a\\x1b[2Kb')
    expect(table).not.toContain('\u001b')
  })
})

describe('relativeTime', () => {
  it.for([
    ['2026-03-10T11:59:40.000Z', 'just now'],
    ['2026-03-10T12:05:00.000Z', 'just now'],
    ['2026-03-10T11:55:00.000Z', '5 min ago'],
    ['2026-03-10T09:00:00.000Z', '3 h ago'],
    ['2026-03-08T12:00:00.000Z', '2 d ago'],
    ['2026-01-02T08:00:00.000Z', '2026-01-02'],
    ['not a time', 'not a time']
  ] as const)('%s is %s', ([iso, shown]) => {
    expect(relativeTime(iso, now)).toBe(shown)
  })
})

describe('totals and widths', () => {
  it('counts no slices, one slice and many', () => {
    expect(totals([])).toBe('0 slices')
    expect(totals([row({})])).toBe('1 slice: 1 verify; 1 undecided; 1 in progress')
    // A slice that could not be judged is not counted in progress.
    expect(totals([row({}), row({slice: 'S-02', inProgress: false}), row({slice: 'S-03', inProgress: null})])).toBe(
      '3 slices: 3 verify; 3 undecided; 1 in progress'
    )
  })

  it('counts wide characters as two columns when cutting', () => {
    expect(displayWidth('記録')).toBe(4)
    expect(truncate('記録する', 5)).toBe('記録…')
    expect(truncate('short', 5)).toBe('short')
    // An emoji sequence is one character of two columns, never cut inside; a letter and its combining mark one column.
    expect(displayWidth('👩‍💻 ok')).toBe(5)
    expect(truncate('👩‍💻👩‍💻👩‍💻', 5)).toBe('👩‍💻👩‍💻…')
    expect(truncate('e\u0301te\u0301 long', 4)).toBe('e\u0301te\u0301…')
  })
})

describe('verify progress', () => {
  it('says each check as it ends, and the time taken', () => {
    const result = {
      criterion_id: 'C-65.1',
      contract: 'C-65',
      text: 'The form saves the draft',
      level: 'behavioral',
      status: 'pass',
      method: 'bash',
      command: 'true',
      exit_code: 0,
      duration_ms: 1234,
      details: '',
      output: null,
      category: null
    } as const
    expect(progressLine({slice: 'S-23', result})).toBe('pass     S-23 C-65.1  The form saves the draft (1.2 s)')
    expect(progressLine({slice: null, result: {...result, criterion_id: 'test-command', status: 'timeout', text: 'x'.repeat(200)}})).toHaveLength(80)
    expect(progressLine({slice: 'S-1', result: {...result, duration_ms: null, status: 'fail'}})).toBe('fail     S-1 C-65.1  The form saves the draft')
    expect(elapsedLine(1, 50)).toBe('1 check in 0.1 s')
    expect(elapsedLine(11, 8612)).toBe('11 checks in 8.6 s')
  })
})
