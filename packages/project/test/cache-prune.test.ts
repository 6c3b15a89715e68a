/**
 * The contracts cache stays small: a run that writes entries keeps its
 * model’s folder under a size bound, least recently used entries first, and
 * removes the folders of other models unused for a week; a run that reads
 * everything from the cache removes nothing, and marks what it used.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {loadProject} from '@verification-tiers/project'
import {describe, expect, it} from 'vitest'
import {withCacheEnvironment} from './helpers/cache-environment.js'
import {pruneCache} from '../lib/cache.js'

const folders = withCacheEnvironment()
const day = 24 * 60 * 60 * 1000

async function temporary(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-cache-prune-')))
  folders.push(folder)
  return folder
}

/** A file of `size` bytes last used `daysAgo` days ago. */
async function file(name: string, size: number, daysAgo: number): Promise<void> {
  await fs.mkdir(path.dirname(name), {recursive: true})
  await fs.writeFile(name, 'x'.repeat(size))
  const time = new Date(Date.now() - daysAgo * day)
  await fs.utimes(name, time, time)
}

async function age(name: string, daysAgo: number): Promise<void> {
  const time = new Date(Date.now() - daysAgo * day)
  await fs.utimes(name, time, time)
}

describe('pruneCache', () => {
  it('removes the least recently used entries until the model’s folder is under the bound', async () => {
    const root = await temporary()
    const model = path.join(root, '0123456789abcdef')
    await file(path.join(model, 'contracts-a.json'), 400, 30)
    await file(path.join(model, 'contracts-b.json'), 400, 2)
    await file(path.join(model, 'graph-json-c.json'), 400, 10)
    await file(path.join(model, 'contracts-d.json'), 400, 0)
    await pruneCache(root, model, {keepUnder: 1000})
    expect((await fs.readdir(model)).sort()).toEqual(['contracts-b.json', 'contracts-d.json'])
    // Under the bound, nothing goes, however old.
    await pruneCache(root, model, {keepUnder: 1000})
    expect((await fs.readdir(model)).sort()).toEqual(['contracts-b.json', 'contracts-d.json'])
  })

  it('removes other models’ folders unused for a week; not this model’s, nor anything it did not name', async () => {
    const root = await temporary()
    const model = path.join(root, '0123456789abcdef')
    await file(path.join(model, 'contracts-a.json'), 10, 0)
    await file(path.join(root, 'fedcba9876543210', 'contracts-a.json'), 10, 0)
    await file(path.join(root, '1111111111111111', 'contracts-a.json'), 10, 0)
    await file(path.join(root, 'notes', 'mine.txt'), 10, 0)
    await file(path.join(root, 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6.json'), 10, 30)
    await age(path.join(root, 'fedcba9876543210'), 8)
    await age(path.join(root, '1111111111111111'), 6)
    await age(path.join(root, 'notes'), 30)
    await age(model, 30)
    await pruneCache(root, model, {keepUnder: 1000})
    expect((await fs.readdir(root)).sort()).toEqual(['0123456789abcdef', '1111111111111111', 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6.json', 'notes'])
  })

  it('says nothing of a folder it cannot read', async () => {
    const root = await temporary()
    await expect(pruneCache(path.join(root, 'none'), path.join(root, 'none', '0123456789abcdef'), {keepUnder: 0})).resolves.toBeUndefined()
  })
})

describe('a run through the cache', () => {
  it('prunes only when it writes an entry, and marks the entries it uses', async () => {
    const folder = await temporary()
    process.env.XDG_CACHE_HOME = path.join(folder, 'cache')
    const dir = path.join(folder, '.greenlight')
    await fs.mkdir(dir)
    await fs.writeFile(path.join(dir, 'CONTRACTS.md'), '### C-01: Kettle\n\n**Verification:** auto\n')
    await loadProject(dir)
    const root = path.join(folder, 'cache', 'verification-tiers', 'contracts')
    const [model] = await fs.readdir(root)
    const [entry] = await fs.readdir(path.join(root, model!))
    const old = path.join(root, 'fedcba9876543210')
    await file(path.join(old, 'contracts-a.json'), 10, 30)
    await age(old, 30)
    await age(path.join(root, model!, entry!), 3)
    // Every file from the cache: nothing written, nothing pruned; the entry used is marked as used now.
    await loadProject(dir)
    expect((await fs.readdir(root)).sort()).toEqual([model, 'fedcba9876543210'])
    expect((await fs.stat(path.join(root, model!, entry!))).mtimeMs).toBeGreaterThan(Date.now() - day)
    // An edit writes an entry: the other model’s old folder goes.
    await fs.appendFile(path.join(dir, 'CONTRACTS.md'), '\n')
    await loadProject(dir)
    expect(await fs.readdir(root)).toEqual([model])
    expect(await fs.readdir(path.join(root, model!))).toHaveLength(2)
  })
})
