/**
 * The code a remembered lint output was made with: a warm run replays it
 * while the code is the same, even when the stamps it was read under changed
 * (a folder touched, a file written again as it was, a package installed
 * again), and runs again once the code changed.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it, onTestFinished, vi} from 'vitest'
import {lintFiles, replayLintOutput} from '@verification-tiers/lint'
import type {LintOutput, LintResult} from '@verification-tiers/lint'
import {cachedSettings} from './cache-property.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const temporary = async (): Promise<string> => {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-cache-code-')))
  folders.push(folder)
  return folder
}

const outputOf = (result: LintResult): LintOutput => ({writes: [{stream: result.report.stream, text: result.report.text}], code: result.code})

describe('the lint cache and the code', () => {
  it('replays while the code is the same, stamps changed or not; runs again once it changed', async () => {
    // An hour on: the files are not too recently changed for their stamps to be trusted, as for a later run.
    const realNow = Date.now.bind(Date)
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000)
    onTestFinished(() => later.mockRestore())
    const project = await temporary()
    await fs.writeFile(path.join(project, 'a.md'), '### C-1: Widget\n\n**Verification:** verify\n')
    // The program whose code is part of what it prints, as the cli's own folder is.
    const program = await temporary()
    const main = path.join(program, 'main.js')
    await fs.writeFile(main, 'export const report = 1\n')
    const settings = cachedSettings(project, ['.'], true)

    const output = (await lintFiles(settings, () => {}, {outputOf, folder: program})).output
    expect(output?.code).toBe(0)
    expect(await replayLintOutput(settings, program)).toEqual(output)

    // Written again as it was, and the folder touched: other stamps, the same code.
    await fs.writeFile(main, 'export const report = 1\n')
    await fs.writeFile(path.join(program, 'notes.txt'), 'not code\n')
    expect(await replayLintOutput(settings, program)).toEqual(output)

    await fs.writeFile(main, 'export const report = 2\n')
    expect(await replayLintOutput(settings, program)).toBeUndefined()
  })
})
