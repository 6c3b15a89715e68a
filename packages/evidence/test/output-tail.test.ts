/**
 * `outputTail`: the end of a failing check’s output as the stop hook shows
 * it, bounded in lines and width whatever the check printed.
 */
import {outputTail} from '@verification-tiers/evidence'
import {describe, expect, it} from 'vitest'

describe('outputTail', () => {
  it('is null for a check that printed nothing, or only blank lines', () => {
    expect(outputTail(null)).toBe(null)
    expect(outputTail('')).toBe(null)
    expect(outputTail('\n  \r\n')).toBe(null)
  })

  it('keeps the last 8 lines that hold anything, indented, and says how many there were', () => {
    const output = Array.from({length: 12}, (_, index) => `line ${index + 1}`).join('\r\n')
    expect(outputTail(`${output}\n\n`)).toBe(['      (last 8 of 12 lines)', ...Array.from({length: 8}, (_, index) => `      line ${index + 5}`)].join('\n'))
  })

  it('cuts a long line to 200 characters, ending it with an ellipsis', () => {
    expect(outputTail('x'.repeat(500))).toBe(`      ${'x'.repeat(199)}…`)
    expect(outputTail('y'.repeat(200))).toBe(`      ${'y'.repeat(200)}`)
  })
})
