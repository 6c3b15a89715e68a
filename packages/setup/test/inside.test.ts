/**
 * `checkWritesInside`: a path that goes through a symbolic link leading out
 * of the project, at any level, is refused naming that link; one whose links
 * all stay inside is allowed.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {checkWritesInside, OutsideLinkError} from '../lib/inside.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function tempFolder(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-inside-')))
  folders.push(folder)
  return folder
}

describe('checkWritesInside', () => {
  it('refuses exactly the paths with a link out of the project, naming it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({min: 1, max: 4}), fc.nat(), fc.boolean(), fc.boolean(), async (depth, at, outside, targetExists) => {
        const project = await tempFolder()
        const elsewhere = await tempFolder()
        const parts = Array.from({length: depth}, (_, index) => `part${index}`)
        const linkAt = at % depth
        const link = path.join(project, ...parts.slice(0, linkAt + 1))
        const base = outside ? elsewhere : path.join(project, 'real')
        const target = path.join(base, 'target')
        await fs.mkdir(path.dirname(link), {recursive: true})
        // The link is to a folder when parts follow it, else to a file (there or not yet).
        if (linkAt < depth - 1 || targetExists)
          await (linkAt < depth - 1 ? fs.mkdir(target, {recursive: true}) : fs.mkdir(base, {recursive: true}).then(() => fs.writeFile(target, 'x')))
        await fs.symlink(target, link)
        const file = parts.join(path.sep)
        const outcome = await checkWritesInside(project, [file]).then(
          () => 'allowed',
          (error: unknown) => (error instanceof OutsideLinkError ? `${error.link} -> ${error.target}` : String(error))
        )
        expect(outcome).toBe(outside ? `${path.relative(project, link)} -> ${target}` : 'allowed')
      }),
      {numRuns: 30}
    )
  })

  it('does not judge a path outside the project as given, nor one with nothing there yet', async () => {
    const project = await tempFolder()
    await expect(checkWritesInside(project, ['../elsewhere/file.md', 'new/folder/file.md', path.join(project, 'a.md')])).resolves.toBeUndefined()
  })
})
