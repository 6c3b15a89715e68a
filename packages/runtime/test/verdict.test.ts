/**
 * Graded verdicts (seed 001): a verifier’s free-text reply read by its first
 * word or phrase into PASS, PASS_WITH_WARNINGS, FAIL_SOFT or FAIL_HARD, the
 * job status each gives, and `tiers verdict` through the real bin (text,
 * `--json`, `--yaml`, standard input, exit codes).
 *
 * Run `npx tsc -b` first: the tests import the built packages and run
 * `node_modules/.bin/tiers`.
 */
import {spawn} from 'node:child_process'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {verdicts} from '@verification-tiers/protocol'
import {isHardFail, isPass, parseVerdict, toJobStatus} from '@verification-tiers/runtime'
import {describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const bin = path.join(root, 'node_modules', '.bin', 'tiers')
const unclear = {verdict: 'FAIL_HARD', message: 'Unclear verification response'}

describe('seed 001, Expected Behavior', () => {
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
    // Seed 001’s parse logic, phrase by phrase.
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

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Run the real bin; `input` is piped to its standard input (closed at once when absent). */
function tiers(args: string[], input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {cwd: root, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr}))
    child.stdin.end(input)
  })
}

describe.concurrent('tiers verdict', () => {
  it('prints the verdict, the job status and the message; a pass exits 0', async ({expect}) => {
    expect(await tiers(['verdict', 'PASS_WITH_WARNINGS:', 'Minor', 'style', 'issues'])).toEqual({
      code: 0,
      stdout: 'PASS_WITH_WARNINGS (job: pass): Minor style issues\n',
      stderr: ''
    })
  })

  it('joins several arguments, and exits 1 for a failure', async ({expect}) => {
    expect(await tiers(['verdict', 'FAIL_HARD:', 'Syntax errors on line 42'])).toEqual({
      code: 1,
      stdout: 'FAIL_HARD (job: fail): Syntax errors on line 42\n',
      stderr: ''
    })
  })

  it('prints a bare verdict without a message', async ({expect}) => {
    expect(await tiers(['verdict', 'passed'])).toEqual({code: 0, stdout: 'PASS (job: pass)\n', stderr: ''})
  })

  it('says why an unclear reply fails hard', async ({expect}) => {
    expect(await tiers(['verdict', 'PASSWORD reset'])).toEqual({
      code: 1,
      stdout: 'FAIL_HARD (job: fail): Unclear verification response\n',
      stderr: ''
    })
  })

  it('prints JSON for orchestrators', async ({expect}) => {
    const run = await tiers(['verdict', '--json', 'FAIL_HARD: Syntax errors on line 42'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({
      verdict: 'FAIL_HARD',
      message: 'Syntax errors on line 42',
      isPass: false,
      isHardFail: true,
      jobStatus: 'fail',
      warnings: []
    })
  })

  it('prints YAML', async ({expect}) => {
    expect(await tiers(['verdict', '--yaml', 'PASS'])).toEqual({
      code: 0,
      stdout: 'verdict: PASS\nmessage: null\nisPass: true\nisHardFail: false\njobStatus: pass\nwarnings: []\n',
      stderr: ''
    })
  })

  it('reads the reply from standard input with `-`, message lines and all', async ({expect}) => {
    expect(await tiers(['verdict', '-'], '**FAIL SOFT**\nThe retry test is flaky\n')).toEqual({
      code: 1,
      stdout: 'FAIL_SOFT (job: fail): The retry test is flaky\n',
      stderr: ''
    })
  })

  it('reads standard input when no text is given, as JSON too', async ({expect}) => {
    const run = await tiers(['verdict', '--json'], 'pass with warnings: one TODO left\n')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      verdict: 'PASS_WITH_WARNINGS',
      message: 'one TODO left',
      isPass: true,
      isHardFail: false,
      jobStatus: 'pass',
      warnings: []
    })
  })

  it('reads empty standard input as unclear', async ({expect}) => {
    expect(await tiers(['verdict', '-'], '')).toEqual({code: 1, stdout: 'FAIL_HARD (job: fail): Unclear verification response\n', stderr: ''})
  })
})
