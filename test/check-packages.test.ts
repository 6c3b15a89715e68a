/**
 * `npm run check:packages` (scripts/check-packages.mjs): the packages as the
 * registry would receive them. It passes on this repository, and fails, with
 * one line naming the file and the fix, on a copy of a real rule whose
 * import is not declared, and on small packages that break one rule each.
 * Fixture roots live under the OS temp folder, with a `node_modules` symlink
 * to the repository's so that what is declared resolves.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {consumerEnvChanges} from './helpers/outside-install.js'
import {root, runProcess} from './helpers/tiers-bin.js'
import type {Run} from './helpers/tiers-bin.js'

const script = path.join(root, 'scripts', 'check-packages.mjs')
const repository = {type: 'git', url: 'git+https://github.com/verification-tiers/verification-tiers.git'}
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Run the check in `cwd`, without what `npm test` tells its scripts about this repository. */
function check(cwd: string, ...args: string[]): Promise<Run> {
  return runProcess(process.execPath, [script, ...args], {cwd, env: consumerEnvChanges()})
}

/** A workspace root under the OS temp folder holding `files`. */
async function fixtureRoot(files: Record<string, string>): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'check-packages-test-'))
  folders.push(folder)
  await fs.symlink(path.join(root, 'node_modules'), path.join(folder, 'node_modules'), 'dir')
  const all = {'package.json': JSON.stringify({name: 'fixture', private: true, repository, workspaces: ['packages/*']}, null, 2), ...files}
  for (const [name, text] of Object.entries(all)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
    await fs.writeFile(path.join(folder, name), text)
  }
  return folder
}

const license = 'MIT License\n\nCopyright (c) 2026 verification-tiers contributors\n'

/** A small package that passes every check; `change` edits its manifest. */
function tiny(change: (manifest: Record<string, unknown>) => void = () => {}, files: Record<string, string> = {}): Record<string, string> {
  const manifest: Record<string, unknown> = {
    name: 'tiny',
    version: '1.0.0',
    license: 'MIT',
    repository: {...repository, directory: 'packages/tiny'},
    engines: {node: '>=20'},
    sideEffects: false,
    type: 'module',
    exports: {'.': {types: './index.d.ts', default: './index.js'}},
    files: ['index.js', 'index.d.ts'],
    dependencies: {yaml: '^2.9.1'}
  }
  change(manifest)
  return {
    'packages/tiny/package.json': JSON.stringify(manifest, null, 2) + '\n',
    'packages/tiny/LICENSE': license,
    'packages/tiny/index.js': "import {parse} from 'yaml'\n\nexport function read(text) {\n  return parse(text)\n}\n",
    'packages/tiny/index.d.ts': 'export declare function read(text: string): unknown\n',
    ...files
  }
}

const declare = (name: string) =>
  `add ${name} to its dependencies (peerDependencies for a host the user installs, such as unified or remark)`

describe('check:packages', () => {
  // That this repository passes is `npm test`’s own `check:packages` step.
  it('fails on a copy of a real rule that imports a package it does not declare', async () => {
    const rule = 'remark-lint-verification-tier'
    const folder = await fixtureRoot({})
    for (const name of ['package.json', 'LICENSE', 'readme.md', 'dist']) {
      await fs.cp(path.join(root, 'packages', rule, name), path.join(folder, 'packages', rule, name), {recursive: true})
    }
    const manifestFile = path.join(folder, 'packages', rule, 'package.json')
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as {dependencies: Record<string, string>}
    expect(manifest.dependencies['@verification-tiers/contracts']).toBeDefined()
    delete manifest.dependencies['@verification-tiers/contracts']
    await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n')

    expect(await check(folder)).toEqual({
      code: 1,
      stdout: [
        `packages/${rule}/dist/lib/index.js: imports @verification-tiers/contracts, which packages/${rule}/package.json does not declare: ${declare('@verification-tiers/contracts')}`,
        'check-packages: 1 package, 1 problem',
        ''
      ].join('\n'),
      stderr: ''
    })
  })

  describe.concurrent('small packages', () => {
    const cases: Array<{name: string; files: Record<string, string>; problems: string[]}> = [
      {name: 'one that declares what it imports passes', files: tiny(), problems: []},
      {
        name: 'an import that is not declared',
        files: tiny((manifest) => delete manifest.dependencies),
        problems: [`packages/tiny/index.js: imports yaml, which packages/tiny/package.json does not declare: ${declare('yaml')}`]
      },
      {
        name: 'a type that names a package it does not declare',
        files: tiny(undefined, {'packages/tiny/index.d.ts': "export declare function read(text: string): import('vfile').VFile\n"}),
        problems: [`packages/tiny/index.d.ts: imports vfile, which packages/tiny/package.json does not declare: ${declare('vfile')}`]
      },
      {
        name: 'a dependency nothing imports',
        files: tiny((manifest) => (manifest.dependencies = {yaml: '^2.9.1', unified: '^11.0.5'})),
        problems: [
          'packages/tiny/package.json: dependencies has unified, which nothing the package ships imports: remove it (what only the build needs belongs in the root devDependencies)'
        ]
      },
      {
        name: 'no LICENSE, engines, sideEffects or repository',
        files: (() => {
          const files = tiny((manifest) => {
            delete manifest.engines
            delete manifest.sideEffects
            delete manifest.repository
          })
          delete files['packages/tiny/LICENSE']
          return files
        })(),
        problems: [
          'packages/tiny: ships no LICENSE file, expected one beside its package.json (npm packs it with the package)',
          'packages/tiny/package.json: no `engines.node`, expected the Node.js versions it runs on, such as ">=20"',
          `packages/tiny/package.json: \`repository\` is missing, expected ${JSON.stringify({...repository, directory: 'packages/tiny'})}`,
          'packages/tiny/package.json: no `sideEffects`, expected false when importing it runs nothing but definitions, else the list of files that do more'
        ]
      },
      {
        name: 'a declaration map without its source',
        files: tiny((manifest) => (manifest.files = ['index.js', 'index.d.ts', 'index.d.ts.map']), {
          'packages/tiny/index.d.ts': 'export declare function read(text: string): unknown\n//# sourceMappingURL=index.d.ts.map\n',
          'packages/tiny/index.d.ts.map': JSON.stringify({version: 3, file: 'index.d.ts', sources: ['src/index.ts'], names: [], mappings: 'AAAA'})
        }),
        problems: [
          'packages/tiny: ships 1 source map without the sources it points at (index.d.ts.map → src/index.ts): ship the sources, or turn `declarationMap` off and delete the maps an earlier build left in dist/'
        ]
      },
      {
        name: 'a built file whose source is gone',
        files: tiny(
          (manifest) => {
            manifest.exports = {'.': {types: './dist/index.d.ts', default: './dist/index.js'}}
            manifest.files = ['dist/']
          },
          {
            'packages/tiny/tsconfig.json': '{}\n',
            'packages/tiny/index.ts': "export {read} from './read.js'\n",
            'packages/tiny/read.ts': "import {parse} from 'yaml'\n\nexport const read = (text: string): unknown => parse(text)\n",
            'packages/tiny/dist/index.js': "export {read} from './read.js'\n",
            'packages/tiny/dist/index.d.ts': "export {read} from './read.js'\n",
            'packages/tiny/dist/read.js': "import {parse} from 'yaml'\nexport const read = (text) => parse(text)\n",
            'packages/tiny/dist/read.d.ts': 'export declare const read: (text: string) => unknown\n',
            'packages/tiny/dist/old.js': "import {diffLines} from 'diff'\nexport const old = diffLines\n"
          }
        ),
        problems: ['packages/tiny: ships 1 built file whose source is gone (dist/old.js), left by an earlier build: delete packages/tiny/dist and build again']
      },
      {
        name: 'exports that point at a file it does not ship',
        files: tiny((manifest) => (manifest.exports = {'.': {types: './index.d.ts', default: './main.js'}})),
        problems: ['packages/tiny: publint error: pkg.exports["."].default is ./main.js but the file does not exist.']
      }
    ]

    it.for(cases)('$name', async ({files, problems}, {expect}) => {
      const folder = await fixtureRoot(files)
      const summary = problems.length === 0 ? 'no problems' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`
      expect(await check(folder)).toEqual({
        code: problems.length === 0 ? 0 : 1,
        stdout: [...problems, `check-packages: 1 package, ${summary}`, ''].join('\n'),
        stderr: ''
      })
    })
  })
})
