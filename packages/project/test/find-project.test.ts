/**
 * `findProjectFolder`: the nearest folder that is a project by what it
 * holds, from the working folder upward, as git finds `.git`; folders that
 * are one only by name (a `.greenlight` holding only tiers' state, an empty
 * one, a `.greenlight` file, a `specs` folder of another kind) are passed by.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {findProjectFolder} from '@verification-tiers/project'
import {afterAll, describe, expect, it} from 'vitest'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function tempFolder(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-find-')))
  folders.push(folder)
  return folder
}

/** Writes `files` (path → text) under `root`; a path ending in `/` is an empty folder. */
async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const target = path.join(root, name)
    if (name.endsWith('/')) {
      await fs.mkdir(target, {recursive: true})
      continue
    }
    await fs.mkdir(path.dirname(target), {recursive: true})
    await fs.writeFile(target, text)
  }
}

/** What a folder on the way up may hold that is a project only by its name. */
const decoys: Record<string, Record<string, string>> = {
  'state only': {'.greenlight/tiers/verification-status.json': '{}', '.greenlight/.DS_Store': ''},
  empty: {'.greenlight/': ''},
  'a file': {'.greenlight': 'not a folder'},
  'specs of another kind': {'specs/notes.md': '# Notes\n'}
}

describe('findProjectFolder', () => {
  it.for(Object.keys(decoys))('passes by a nearer `.greenlight` or tool folder that is one by name only (%s)', async (kind) => {
    const root = await tempFolder()
    await write(root, {'.greenlight/CONTRACTS.md': '### C-01: One\n', 'app/src/deep/': ''})
    await write(path.join(root, 'app'), decoys[kind] as Record<string, string>)
    expect(await findProjectFolder(path.join(root, 'app', 'src', 'deep'))).toBe(path.join(root, '.greenlight'))
  })

  it('takes a nearer `.greenlight` holding any file of its own, readable or not, before one above', async () => {
    const root = await tempFolder()
    await write(root, {'.greenlight/CONTRACTS.md': '### C-01: One\n', 'app/.greenlight/notes.txt': 'whatever', 'app/src/': ''})
    expect(await findProjectFolder(path.join(root, 'app', 'src'))).toBe(path.join(root, 'app', '.greenlight'))
  })

  it('with no project by content up to the root, the nearest `.greenlight` of any kind, so its loader says what is wrong', async () => {
    const root = await tempFolder()
    await write(root, {'outer/.greenlight/tiers/x.json': '{}', 'outer/inner/.greenlight': 'a file', 'outer/inner/src/': ''})
    const found = await findProjectFolder(path.join(root, 'outer', 'inner', 'src'))
    // Unless a real project lies above the temporary folder, the nearest named one is what is found.
    const above = await findProjectFolder(path.dirname(root))
    expect(found).toBe(above !== null && (await isProject(above)) ? above : path.join(root, 'outer', 'inner', '.greenlight'))
  })

  it('property: from any depth, with decoys at any levels, finds the nearest real project', async () => {
    const level = fc.constantFrom(null, ...Object.keys(decoys), 'project')
    await fc.assert(
      fc.asyncProperty(fc.array(level, {minLength: 1, maxLength: 5}), fc.integer({min: 0, max: 2}), async (levels, below) => {
        const root = await tempFolder()
        // Level 0 is the outermost and always a project, so one is always found.
        const all = ['project', ...levels]
        let folder = root
        const projects: string[] = []
        for (const kind of all) {
          folder = path.join(folder, 'l')
          if (kind === 'project') {
            await write(folder, {'.greenlight/GRAPH.json': '{}'})
            projects.push(path.join(folder, '.greenlight'))
          } else if (kind !== null) await write(folder, decoys[kind] as Record<string, string>)
        }
        const start = path.join(folder, ...Array.from({length: below}, () => 'sub'))
        await fs.mkdir(start, {recursive: true})
        expect(await findProjectFolder(start)).toBe(projects.at(-1))
      }),
      {numRuns: 40}
    )
  })
})

async function isProject(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir).catch(() => [] as string[])
  return entries.some((entry) => entry !== 'tiers' && !entry.startsWith('.'))
}
