/**
 * The `.gitignore` step of `tiers init`: the caches and local state of the
 * project's state folder are added after the user's lines, none of which is
 * changed, moved or added twice.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {ignoreEntries, planGitignore} from '../lib/gitignore.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function projectWith(gitignore: string | null): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-gitignore-'))
  folders.push(folder)
  if (gitignore !== null) await fs.writeFile(path.join(folder, '.gitignore'), gitignore)
  return folder
}

const entries = [
  '.greenlight/tiers/verification-status.json',
  '.greenlight/tiers/stop-hook.json',
  '.greenlight/tiers/.verify-lint-cache',
  '.greenlight/tiers/*.lock',
  '.greenlight/tiers/.lint-cache'
]

describe('planGitignore', () => {
  it('the entries of a Greenlight project, and of a tool’s, its lint cache in its own state folder', () => {
    expect(ignoreEntries('.greenlight/tiers')).toEqual(entries)
    expect(ignoreEntries('specs/tiers')).toEqual([
      'specs/tiers/verification-status.json',
      'specs/tiers/stop-hook.json',
      'specs/tiers/.verify-lint-cache',
      'specs/tiers/*.lock',
      'specs/tiers/.lint-cache'
    ])
  })

  it('a new file: the entries under a comment', async () => {
    const step = await planGitignore(await projectWith(null), '.greenlight/tiers')
    expect(step).toEqual({
      kind: 'write',
      planned: {
        file: '.gitignore',
        before: null,
        after: ['# verification-tiers: caches and local state', ...entries, ''].join('\n'),
        change: 'ignores 5 caches and local state files'
      }
    })
  })

  it('an existing file without a final line ending, in CRLF, with one entry already there (indented): the others after it, in CRLF', async () => {
    const before = 'node_modules/\r\n  .greenlight/tiers/stop-hook.json\r\n# build\r\ndist'
    const step = await planGitignore(await projectWith(before), '.greenlight/tiers')
    expect(step.kind === 'write' && step.planned.after).toBe(
      before + '\r\n\r\n' + ['# verification-tiers: caches and local state', ...entries.filter((entry) => !entry.endsWith('stop-hook.json')), ''].join('\r\n')
    )
  })

  it('every entry there: unchanged', async () => {
    expect(await planGitignore(await projectWith(`*.log\n${entries.join('\n')}\n`), '.greenlight/tiers')).toEqual({
      kind: 'unchanged',
      file: '.gitignore',
      reason: 'it already ignores the caches and local state'
    })
  })

  it('property: the user’s text is kept as a prefix, each entry is there once, and a second plan on the result changes nothing', async () => {
    const line = fc.oneof(fc.constantFrom(...entries, '', '# notes', 'dist/', '!keep.log'), fc.stringMatching(/^[\w./*!# -]{0,20}$/))
    const folder = await projectWith(null)
    await fc.assert(
      fc.asyncProperty(fc.array(line, {maxLength: 8}), fc.constantFrom('\n', '\r\n'), fc.boolean(), async (lines, eol, finalEol) => {
        const before = lines.join(eol) + (finalEol && lines.length > 0 ? eol : '')
        await fs.writeFile(path.join(folder, '.gitignore'), before)
        const step = await planGitignore(folder, '.greenlight/tiers')
        const after = step.kind === 'write' ? step.planned.after : before
        expect(after.startsWith(before)).toBe(true)
        const afterLines = after.split(/\r?\n/).map((each) => each.trim())
        for (const entry of entries)
          expect(afterLines.filter((each) => each === entry).length).toBe(Math.max(1, lines.filter((each) => each.trim() === entry).length))
        await fs.writeFile(path.join(folder, '.gitignore'), after)
        expect((await planGitignore(folder, '.greenlight/tiers')).kind).toBe('unchanged')
      }),
      {numRuns: 60}
    )
  })
})
