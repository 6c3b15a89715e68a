/**
 * The release: `changeset version`, run on a copy of the manifests and the
 * pending changesets (and one of its own, for a patch of one package, so
 * that there is one just after a release too), bumps every package to one
 * version (they are one `fixed` group), moves the internal dependency
 * ranges to it, writes each changelog and uses up the changesets. The
 * repository itself is not touched.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {workspaceFolders} from '../scripts/workspaces.mjs'
import {consumerEnvChanges} from './helpers/outside-install.js'
import {root, runProcess} from './helpers/tiers-bin.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

interface Manifest {
  name: string
  version: string
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

const bumps = ['patch', 'minor', 'major'] as const

/** `version` raised by `bump`, as semver does below 1.0.0 too. */
function raise(version: string, bump: (typeof bumps)[number]): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number]
  if (bump === 'major') return `${major + 1}.0.0`
  if (bump === 'minor') return `${major}.${minor + 1}.0`
  return `${major}.${minor}.${patch + 1}`
}

async function readManifests(dir: string): Promise<Map<string, Manifest>> {
  const manifests = new Map<string, Manifest>()
  for (const folder of await workspaceFolders(dir))
    manifests.set(folder, JSON.parse(await fs.readFile(path.join(dir, folder, 'package.json'), 'utf8')) as Manifest)
  return manifests
}

describe('changeset version', () => {
  it('releases every package together at one version, with internal ranges on it', async () => {
    const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-release-'))
    folders.push(copy)
    await fs.copyFile(path.join(root, 'package.json'), path.join(copy, 'package.json'))
    await fs.cp(path.join(root, '.changeset'), path.join(copy, '.changeset'), {recursive: true})
    // A change of one package, beside those pending (none, just after a release): the group releases together all the same.
    await fs.writeFile(path.join(copy, '.changeset', 'release-test.md'), '---\n"remark-lint-verification-tier": patch\n---\n\nA fix of one rule.\n')
    const before = await readManifests(root)
    for (const dir of before.keys()) {
      await fs.mkdir(path.join(copy, dir), {recursive: true})
      await fs.copyFile(path.join(root, dir, 'package.json'), path.join(copy, dir, 'package.json'))
    }
    await fs.symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir')

    // The version to expect: the one version of all packages, raised by the largest pending bump.
    const versions = new Set([...before.values()].map((manifest) => manifest.version))
    expect(versions.size, 'every package has the same version').toBe(1)
    const changesets = (await fs.readdir(path.join(copy, '.changeset'))).filter((file) => file.endsWith('.md') && file !== 'README.md')
    const pending = (await Promise.all(changesets.map((file) => fs.readFile(path.join(copy, '.changeset', file), 'utf8'))))
      .flatMap((text) => [...(/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '').matchAll(/: (patch|minor|major)\s*$/gm)].map((match) => match[1]))
      .map((bump) => bumps.indexOf(bump as (typeof bumps)[number]))
    expect(pending.length, 'pending changesets').toBeGreaterThan(0)
    const next = raise([...versions][0]!, bumps[Math.max(...pending)]!)

    const result = await runProcess(process.execPath, [path.join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], {
      cwd: copy,
      env: consumerEnvChanges()
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)

    const after = await readManifests(copy)
    const names = new Set([...after.values()].map((manifest) => manifest.name))
    for (const [dir, manifest] of after) {
      expect(`${dir} ${manifest.version}`).toBe(`${dir} ${next}`)
      for (const field of ['dependencies', 'peerDependencies'] as const) {
        for (const [name, range] of Object.entries(manifest[field] ?? {})) {
          if (names.has(name)) expect(`${dir} ${field} ${name} ${range}`).toBe(`${dir} ${field} ${name} ${next}`)
        }
      }
      const changelog = await fs.readFile(path.join(copy, dir, 'CHANGELOG.md'), 'utf8')
      expect(changelog.startsWith(`# ${manifest.name}\n\n## ${next}\n`), `${dir}/CHANGELOG.md`).toBe(true)
    }
    expect((await fs.readdir(path.join(copy, '.changeset'))).filter((file) => file.endsWith('.md') && file !== 'README.md')).toEqual([])
  })
})
