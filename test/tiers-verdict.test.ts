/**
 * `tiers verdict` through the cli (its `main`, in the test process): a verifier’s reply as arguments or on
 * standard input, printed as text, `--json` or `--yaml`, with the job status
 * as the exit code. How a reply is read is tested with `parseVerdict` in
 * `packages/runtime/test/verdict.test.ts`.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import fs from 'node:fs/promises'
import {beforeAll, describe, it} from 'vitest'
import {builtBin, root} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'
import type {Run} from './helpers/tiers-bin.js'

beforeAll(async () => {
  await fs.access(builtBin)
})

/** Run `tiers` (its `main`, in this process); `input` is its standard input. */
const tiers = (args: string[], input = ''): Promise<Run> => runTiers(root, args, input)

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
