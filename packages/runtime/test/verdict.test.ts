/**
 * Graded verdicts: a verifier’s free-text reply read by its first
 * word or phrase into PASS, PASS_WITH_WARNINGS, FAIL_SOFT or FAIL_HARD, and
 * the job status each gives. `tiers verdict` is tested end to end in
 * `test/tiers-verdict.test.ts`.
 *
 * Run `npx tsc -b` first: the tests import the built packages.
 */
import {verdicts} from '@verification-tiers/protocol'
import {isHardFail, isPass, parseVerdict, toJobStatus} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'

const unclear = {verdict: 'FAIL_HARD', message: 'Unclear verification response'}

describe('a verdict with a message', () => {
  it('reads `PASS_WITH_WARNINGS: Minor style issues` as a passing verdict with warnings', () => {
    const {verdict, message} = parseVerdict('PASS_WITH_WARNINGS: Minor style issues')
    expect(verdict).toBe('PASS_WITH_WARNINGS')
    expect(message).toBe('Minor style issues')
    expect(isPass(verdict)).toBe(true)
    expect(isHardFail(verdict)).toBe(false)
    expect(toJobStatus(verdict)).toBe('pass')
  })

  it('reads `FAIL_HARD: Syntax errors on line 42` as a hard failure', () => {
    const {verdict, message} = parseVerdict('FAIL_HARD: Syntax errors on line 42')
    expect(verdict).toBe('FAIL_HARD')
    expect(message).toBe('Syntax errors on line 42')
    expect(isPass(verdict)).toBe(false)
    expect(isHardFail(verdict)).toBe(true)
    expect(toJobStatus(verdict)).toBe('fail')
  })
})

describe('parseVerdict', () => {
  it.each([
    // Each phrase, with `_` or a space between words, and `PASSED`/`FAILED`.
    ['PASS', 'PASS', null],
    ['PASSED', 'PASS', null],
    ['PASS_WITH_WARNINGS', 'PASS_WITH_WARNINGS', null],
    ['PASS WITH WARNINGS', 'PASS_WITH_WARNINGS', null],
    ['FAIL_SOFT', 'FAIL_SOFT', null],
    ['FAIL SOFT', 'FAIL_SOFT', null],
    ['FAIL_HARD', 'FAIL_HARD', null],
    ['FAIL HARD', 'FAIL_HARD', null],
    // A bare failure defaults to the strictest.
    ['FAIL', 'FAIL_HARD', null],
    ['FAILED', 'FAIL_HARD', null],
    ['FAILED: 3 tests fail', 'FAIL_HARD', '3 tests fail']
  ])('reads %j as %s', (text, verdict, message) => {
    expect(parseVerdict(text)).toEqual({verdict, message})
  })

  it.each([
    ['pass', 'PASS'],
    ['Passed', 'PASS'],
    ['pass_with_warnings', 'PASS_WITH_WARNINGS'],
    ['Pass With Warnings', 'PASS_WITH_WARNINGS'],
    ['pAsS_wItH_wArNiNgS', 'PASS_WITH_WARNINGS'],
    ['fail soft', 'FAIL_SOFT'],
    ['Fail_Soft', 'FAIL_SOFT'],
    ['fail hard', 'FAIL_HARD'],
    ['failed', 'FAIL_HARD']
  ])('ignores case: %j is %s', (text, verdict) => {
    expect(parseVerdict(text)).toEqual({verdict, message: null})
  })

  it.each([
    ['  PASS  ', 'PASS', null],
    ['\n\tPASSED\n', 'PASS', null],
    ['PASS   :   all good  ', 'PASS', 'all good'],
    ['pass with  warnings', 'PASS_WITH_WARNINGS', null],
    ['PASS  WITH\tWARNINGS: two spaces and a tab', 'PASS_WITH_WARNINGS', 'two spaces and a tab'],
    ['FAIL   SOFT - flaky', 'FAIL_SOFT', 'flaky'],
    ['fail  hard', 'FAIL_HARD', null]
  ])('allows extra spacing: %j is %s', (text, verdict, message) => {
    expect(parseVerdict(text)).toEqual({verdict, message})
  })

  it.each([
    ['**PASS**', 'PASS', null],
    ['**PASS**: all criteria met', 'PASS', 'all criteria met'],
    ['`PASSED` everything checked', 'PASS', 'everything checked'],
    ['> FAIL_SOFT: flaky test', 'FAIL_SOFT', 'flaky test'],
    ['## FAIL HARD\nThe build breaks', 'FAIL_HARD', 'The build breaks'],
    ['"FAIL": the handler throws', 'FAIL_HARD', 'the handler throws'],
    ['*PASS_WITH_WARNINGS* — unused import', 'PASS_WITH_WARNINGS', 'unused import']
  ])('ignores leading markdown: %j is %s', (text, verdict, message) => {
    expect(parseVerdict(text)).toEqual({verdict, message})
  })

  it.each([
    ['PASS: ok', 'ok'],
    ['PASS - ok', 'ok'],
    ['PASS — ok', 'ok'],
    ['PASS – ok', 'ok'],
    ['PASS. ok', 'ok'],
    ['PASS ok', 'ok'],
    ['PASS\nSecond line\nThird line', 'Second line\nThird line'],
    ['PASSED.', null]
  ])('keeps the rest of %j as the message', (text, message) => {
    expect(parseVerdict(text)).toEqual({verdict: 'PASS', message})
  })

  it.each([
    'PASSWORD reset works',
    'Passing all tests',
    'Failure to compile',
    'FAILS on CI',
    'FAIL_SOFTLY',
    'PASS_WITH',
    'PASS2',
    'The verdict is PASS',
    'Looks good to me',
    '',
    '   ',
    '\n\n',
    '**'
  ])('reads the unclear %j as FAIL_HARD', (text) => {
    expect(parseVerdict(text)).toEqual(unclear)
  })

  it('names every verdict of the protocol, strictest last', () => {
    expect(verdicts).toEqual(['PASS', 'PASS_WITH_WARNINGS', 'FAIL_SOFT', 'FAIL_HARD'])
  })
})

describe('isPass, isHardFail, toJobStatus', () => {
  it.each([
    ['PASS', true, false, 'pass'],
    ['PASS_WITH_WARNINGS', true, false, 'pass'],
    ['FAIL_SOFT', false, false, 'fail'],
    ['FAIL_HARD', false, true, 'fail']
  ] as const)('%s: isPass %s, isHardFail %s, job %s', (verdict, pass, hardFail, job) => {
    expect(isPass(verdict)).toBe(pass)
    expect(isHardFail(verdict)).toBe(hardFail)
    expect(toJobStatus(verdict)).toBe(job)
  })
})
