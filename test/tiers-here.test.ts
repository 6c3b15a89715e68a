/**
 * The in-process runner of the cli (`scripts/tiers-here.mjs`), which the
 * tests and `npm run check:corpus` share: a run that cannot start leaves the
 * process as it found it, for the runs after it.
 */
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {runTiersInProcess} from '../scripts/tiers-here.mjs'

describe('runTiersInProcess', () => {
  it('puts the environment and the working folder back when the folder to run in is missing', async () => {
    const before = {cwd: process.cwd(), marker: process.env.TIERS_HERE_MARKER}
    const missing = path.join(os.tmpdir(), 'verification-tiers-no-such-folder', 'project')
    await expect(runTiersInProcess(missing, ['status'], {env: {TIERS_HERE_MARKER: 'set'}})).rejects.toThrow(/ENOENT/)
    expect({cwd: process.cwd(), marker: process.env.TIERS_HERE_MARKER}).toEqual(before)
  })
})
