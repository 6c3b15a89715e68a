import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {greenlight, tools} from '@verification-tiers/project'
import {afterAll, describe, expect, it} from 'vitest'
import {defaultLintCache, projectFolderNames} from '../lib/commands/lint-replay.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function folderWith(names: readonly string[]): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-lint-cache-'))
  folders.push(folder)
  for (const name of names) await fs.mkdir(path.join(folder, name), {recursive: true})
  return folder
}

describe('defaultLintCache', () => {
  it('looks for the project folders the gate looks for, in its order', () => {
    expect(projectFolderNames).toEqual([greenlight.folder, ...tools.map((tool) => tool.folder)])
  })

  it('is in the state folder of the first project folder here, else under .greenlight', async () => {
    expect(defaultLintCache(await folderWith(['specs']))).toBe(path.join('specs', 'tiers', '.lint-cache'))
    expect(defaultLintCache(await folderWith(['openspec', '.kiro']))).toBe(path.join('openspec', 'tiers', '.lint-cache'))
    expect(defaultLintCache(await folderWith(['specs', '.greenlight']))).toBe(path.join('.greenlight', 'tiers', '.lint-cache'))
    expect(defaultLintCache(await folderWith(['docs']))).toBe(path.join('.greenlight', 'tiers', '.lint-cache'))
    // A file of that name is no project folder.
    const file = await folderWith([])
    await fs.writeFile(path.join(file, 'specs'), '')
    expect(defaultLintCache(file)).toBe(path.join('.greenlight', 'tiers', '.lint-cache'))
  })
})
