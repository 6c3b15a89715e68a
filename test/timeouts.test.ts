/**
 * Timeouts are positive, finite and at most a day (86400 s), whether given
 * with `--timeout` or as a criterion’s own `timeout` in a contract’s
 * frontmatter. A bad one is an error naming the value and where it came
 * from, before any check runs; never Node’s TimeoutOverflowWarning and an
 * instant timeout, never a silent fall back to the default.
 *
 * Runs that check go through the real bin, and so do the refusals of values
 * past Node's timer limit (2147483647 ms), whose TimeoutOverflowWarning would
 * come on the process's stderr. The other refusals, which run nothing, run the
 * cli's `main` in the test process, where a process of its own would cost
 * more than reading the value.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtBin, runTiers} from './helpers/tiers-bin.js'
import {runTiersHere} from './helpers/tiers-here.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const rule = 'expected a number of seconds above 0 and at most 86400'

/** A project with one frontmatter contract, C-02 of slice S-01, whose one criterion runs `command` with `timeout` as written. */
async function project(timeout: string | null, command = 'echo ran > ran.txt'): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-timeouts-')))
  folders.push(folder)
  await fs.mkdir(path.join(folder, '.greenlight', 'contracts'), {recursive: true})
  const contract = [
    '---', // 1
    'id: C-02', // 2
    'contract: Timed', // 3
    'slice: S-01', // 4
    'verification: verify', // 5
    'acceptance_criteria:', // 6
    '  - text: It answers in time', // 7
    '    verify:', // 8
    '      method: bash', // 9
    `      command: ${JSON.stringify(command)}`, // 10
    ...(timeout === null ? [] : [`      timeout: ${timeout}`]), // 11
    '---',
    '',
    '# C-02: Timed',
    ''
  ].join('\n')
  await fs.writeFile(path.join(folder, '.greenlight', 'contracts', 'C-02.md'), contract)
  return folder
}

const statusFile = (folder: string) => path.join(folder, '.greenlight', 'tiers', 'verification-status.json')

describe.concurrent('tiers verify --timeout', () => {
  // Past Node's timer limit: through the real bin.
  const overflow = ['1e10', '2147484', 'Infinity']
  it.each([...overflow, '86400.5', '0', '-5', 'abc', '0x'])('refuses `--timeout %s` before running anything, exit 1', async (value) => {
    const folder = await project(null)
    const run = await (overflow.includes(value) ? runTiers : runTiersHere)(folder, ['verify', 'S-01', `--timeout=${value}`])
    expect(run).toEqual({code: 1, stdout: '', stderr: `tiers: Unexpected \`--timeout ${value}\`, ${rule}\n`})
    expect(existsSync(path.join(folder, 'ran.txt'))).toBe(false)
    expect(existsSync(statusFile(folder))).toBe(false)
  })

  // One project for both: the check sleeps 2 s, past the fraction of a second and well within a day.
  it('takes a fraction of a second, and times a check out after it; takes a day', async ({expect}) => {
    const folder = await project(null, 'sleep 2')
    const quick = await runTiers(folder, ['verify', 'S-01', '--timeout', '0.5', '--json'])
    expect({code: quick.code, stderr: quick.stderr}).toEqual({code: 1, stderr: ''})
    const data = JSON.parse(quick.stdout)
    expect(data.verification_run.timeout_seconds).toBe(0.5)
    const [, check] = data.results
    expect(check).toMatchObject({status: 'timeout', details: 'timed out after 0.5 s; its process group was killed'})
    expect(check.duration_ms).toBeGreaterThanOrEqual(500)
    expect(check.duration_ms).toBeLessThan(2000)
    const day = await runTiers(folder, ['verify', 'S-01', '--timeout', '86400', '--json'])
    expect({code: day.code, stderr: day.stderr}).toEqual({code: 0, stderr: ''})
    expect(JSON.parse(day.stdout).verification_run.timeout_seconds).toBe(86400)
  })
})

describe.concurrent('a criterion’s own timeout', () => {
  // Line 11, after `      timeout: `.
  it.each(['.inf', '0', '-5', '"abc"', '.nan', '86401', '[1]'])(
    'refuses `timeout: %s` naming the file, line and column, exit 2, before running anything',
    async (value) => {
      const folder = await project(value)
      // Past Node's timer limit (`.inf`): through the real bin.
      const run = await (value === '.inf' ? runTiers : runTiersHere)(folder, ['verify', 'S-01'])
      expect(run).toEqual({code: 2, stdout: '', stderr: `tiers: .greenlight/contracts/C-02.md:11:16: Unexpected timeout \`${value}\`, ${rule}\n`})
      expect(existsSync(path.join(folder, 'ran.txt'))).toBe(false)
      expect(existsSync(statusFile(folder))).toBe(false)
    }
  )

  it('is a lint warning too', async ({expect}) => {
    const folder = await project('0')
    const run = await runTiers(folder, ['lint', '--frail', '.greenlight/contracts/C-02.md'])
    expect(run.code).toBe(1)
    // eslint-disable-next-line no-control-regex
    const plain = (run.stdout + run.stderr).replace(/\u001b\[[\d;]*m/g, '')
    expect(plain).toContain(`11:16-11:17 warning Unexpected \`timeout\` as \`0\`, ${rule}`)
  })

  it('is used when it is a number of seconds, and `timeout:` with no value takes the default', async ({expect}) => {
    const quick = await project('0.5', 'sleep 5')
    const run = await runTiers(quick, ['verify', 'S-01', '--timeout', '30'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('Details: timed out after 0.5 s; its process group was killed\n')
    const empty = await project('', 'echo ran > ran.txt')
    const passing = await runTiers(empty, ['verify', 'S-01'])
    expect({code: passing.code, stderr: passing.stderr}).toEqual({code: 0, stderr: ''})
    expect(existsSync(path.join(empty, 'ran.txt'))).toBe(true)
  })
})
