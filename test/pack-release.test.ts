/**
 * `scripts/pack-release.mjs` on a small repository of its own: each
 * package's tarball carries the packages of the repository it needs, names
 * its direct ones in `bundleDependencies`, and lists as its own the outside
 * dependencies of those it carries (npm installs only those of the package
 * it is given). A name the carried packages ask for with two ranges is an
 * error, before anything is written. The install itself, from the README, is
 * `outside-install.test.ts`.
 */
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {afterAll, describe, expect, it} from 'vitest'
import {consumerEnvChanges} from './helpers/outside-install.js'
import {root, runProcess} from './helpers/tiers-bin.js'

const execFileAsync = promisify(execFile)
const script = path.join(root, 'scripts', 'pack-release.mjs')
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A repository whose `packages/<dir>/package.json` are `manifests`. */
async function repository(manifests: Record<string, Record<string, unknown>>): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-pack-release-')))
  folders.push(folder)
  // The packages are found as npm finds them: by the root manifest's workspaces.
  await fs.writeFile(path.join(folder, 'package.json'), JSON.stringify({name: 'repository', private: true, workspaces: ['packages/*']}, null, 2))
  for (const [dir, manifest] of Object.entries(manifests)) {
    await fs.mkdir(path.join(folder, 'packages', dir), {recursive: true})
    await fs.writeFile(
      path.join(folder, 'packages', dir, 'package.json'),
      JSON.stringify({version: '0.0.0', license: 'MIT', type: 'module', ...manifest}, null, 2)
    )
    await fs.writeFile(path.join(folder, 'packages', dir, 'index.js'), `export const name = ${JSON.stringify(manifest.name)}\n`)
  }
  return folder
}

/** The package.json of `tarball` and the files under its node_modules. */
async function readTarball(tarball: string): Promise<{manifest: Record<string, unknown>; carried: string[]}> {
  const {stdout: list} = await execFileAsync('tar', ['-tzf', tarball])
  const {stdout: manifest} = await execFileAsync('tar', ['-xzOf', tarball, 'package/package.json'])
  return {
    manifest: JSON.parse(manifest) as Record<string, unknown>,
    carried: list
      .split('\n')
      .filter((file) => file.startsWith('package/node_modules/'))
      .sort()
  }
}

const pack = (repo: string) => runProcess(process.execPath, [script, '--root', repo], {cwd: repo, env: consumerEnvChanges()})

describe('pack-release', () => {
  it('packs each package with what it needs of the repository, and their outside dependencies as its own', async () => {
    const repo = await repository({
      app: {name: '@scope/app', dependencies: {'@scope/core': '0.0.0', kleur: '^4.1.0'}},
      core: {name: '@scope/core', dependencies: {'remark-lint-thing': '0.0.0', 'mdast-util-to-string': '^4.0.0'}, peerDependencies: {unified: '^11.0.0'}},
      thing: {name: 'remark-lint-thing', dependencies: {'unified-lint-rule': '^3.0.0'}}
    })
    const run = await pack(repo)
    expect(run).toEqual({
      code: 0,
      stdout: [
        'release/scope-app.tgz: @scope/app@0.0.0, carrying 2 packages of this repository',
        'release/scope-core.tgz: @scope/core@0.0.0, carrying 1 package of this repository',
        'release/remark-lint-thing.tgz: remark-lint-thing@0.0.0',
        ''
      ].join('\n'),
      stderr: ''
    })
    expect((await fs.readdir(path.join(repo, 'release'))).sort()).toEqual(['remark-lint-thing.tgz', 'scope-app.tgz', 'scope-core.tgz'])

    const app = await readTarball(path.join(repo, 'release', 'scope-app.tgz'))
    expect(app.carried).toEqual([
      'package/node_modules/@scope/core/index.js',
      'package/node_modules/@scope/core/package.json',
      'package/node_modules/remark-lint-thing/index.js',
      'package/node_modules/remark-lint-thing/package.json'
    ])
    expect(app.manifest).toMatchObject({
      name: '@scope/app',
      dependencies: {'@scope/core': '0.0.0', kleur: '^4.1.0', 'mdast-util-to-string': '^4.0.0', 'unified-lint-rule': '^3.0.0'},
      bundleDependencies: ['@scope/core'],
      peerDependencies: {unified: '^11.0.0'}
    })
    // The packages themselves are packed as they are.
    const thing = await readTarball(path.join(repo, 'release', 'remark-lint-thing.tgz'))
    expect(thing).toEqual({
      carried: [],
      manifest: {name: 'remark-lint-thing', version: '0.0.0', license: 'MIT', type: 'module', dependencies: {'unified-lint-rule': '^3.0.0'}}
    })
    expect(JSON.parse(await fs.readFile(path.join(repo, 'packages/app/package.json'), 'utf8'))).not.toHaveProperty('bundleDependencies')
  })

  it('refuses an outside package asked for with two ranges, and a private package, writing nothing', async () => {
    const clash = await repository({
      app: {name: 'app', dependencies: {core: '0.0.0', kleur: '^4.1.0'}},
      core: {name: 'core', dependencies: {kleur: '^3.0.0'}}
    })
    expect(await pack(clash)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'pack-release: Unexpected kleur@^3.0.0 in core, expected the range app carries it at, ^4.1.0: give both the same range\n'
    })
    expect(existsSync(path.join(clash, 'release'))).toBe(false)

    const hidden = await repository({app: {name: 'app', private: true}})
    expect(await pack(hidden)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'pack-release: packages/app/package.json: Unexpected `private: true`, expected a package that can be published\n'
    })
  })
})
