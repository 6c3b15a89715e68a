/**
 * An error `tiers` did not expect is a bug: it exits 3 (not 2, the code of a
 * broken file), says so in one line, and prints its stack when asked with
 * `--debug` or `DEBUG=tiers`. A planted TypeError (`helpers/internal-bug.mjs`)
 * stands for the bug.
 */
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, it} from 'vitest'
import {root, runProcess, tiersBin} from './helpers/tiers-bin.js'

const plant = pathToFileURL(path.join(root, 'test', 'helpers', 'internal-bug.mjs')).href
const withBug = (args: string[], env: Record<string, string | undefined> = {}) =>
  runProcess(process.execPath, ['--import', plant, tiersBin, ...args], {cwd: root, env: {TIERS_TEST_BUG: 'planted bug', DEBUG: undefined, ...env}})

const line = 'tiers: internal error: planted bug (a bug in tiers: run it again with --debug for the stack, and report it)\n'

describe.concurrent('an unexpected error', () => {
  it('exits 3 with one line that says it is a bug', async ({expect}) => {
    expect(await withBug(['status'])).toEqual({code: 3, stdout: '', stderr: line})
  })

  it('prints its stack with --debug, and with DEBUG=tiers', async ({expect}) => {
    for (const run of [await withBug(['status', '--debug']), await withBug(['status'], {DEBUG: 'tiers'})]) {
      expect(run.code).toBe(3)
      expect(run.stderr.startsWith(line + 'TypeError: planted bug\n    at ')).toBe(true)
    }
  })

  it('keeps `--json` readable: the error as JSON on stdout, said once; the stack on stderr only when asked', async ({expect}) => {
    const run = await withBug(['status', '--json'])
    expect(run.code).toBe(3)
    expect(JSON.parse(run.stdout)).toEqual({error: {code: 3, message: line.slice('tiers: '.length, -1)}})
    expect(run.stderr).toBe('')
    const debug = await withBug(['status', '--json', '--debug'])
    expect(JSON.parse(debug.stdout)).toEqual({error: {code: 3, message: line.slice('tiers: '.length, -1)}})
    expect(debug.stderr.startsWith('TypeError: planted bug\n    at ')).toBe(true)
  })
})
