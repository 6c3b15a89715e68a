/**
 * `npm run check:packages` (scripts/check-packages.mjs): the packages as the
 * registry would receive them. It passes on this repository, and fails, with
 * one line naming the file and the fix, on a copy of a real rule whose
 * import is not declared, and on small packages that break one rule each.
 * Fixture roots live under the OS temp folder, with a `node_modules` symlink
 * to the repository's so that what is declared resolves.
 */
import {readFileSync} from 'node:fs'
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

const rule = 'remark-lint-verification-tier'
/** Every fixture package has the real rule's version: the check wants one version for all. */
const version = (JSON.parse(readFileSync(path.join(root, 'packages', rule, 'package.json'), 'utf8')) as {version: string}).version

/** A small package in `packages/<dir>` that passes every check; `change` edits its manifest; `files` are by path in the package. */
function tiny(dir: string, change: (manifest: Record<string, unknown>) => void = () => {}, files: Record<string, string> = {}): Record<string, string> {
  const manifest: Record<string, unknown> = {
    name: dir,
    version,
    license: 'MIT',
    repository: {...repository, directory: `packages/${dir}`},
    engines: {node: '>=20'},
    sideEffects: false,
    type: 'module',
    exports: {'.': {types: './index.d.ts', default: './index.js'}},
    files: ['index.js', 'index.d.ts'],
    dependencies: {yaml: '^2.9.1'}
  }
  change(manifest)
  const all: Record<string, string> = {
    'package.json': JSON.stringify(manifest, null, 2) + '\n',
    LICENSE: license,
    'index.js': "import {parse} from 'yaml'\n\nexport function read(text) {\n  return parse(text)\n}\n",
    'index.d.ts': 'export declare function read(text: string): unknown\n',
    ...files
  }
  return Object.fromEntries(Object.entries(all).map(([name, text]) => [`packages/${dir}/${name}`, text]))
}

/** The manifest of package `name` as installed in the repository, which the fixtures' packages resolve to. */
const installed = (name: string): {version: string; engines: {node: string}} =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as {version: string; engines: {node: string}}

const declare = (name: string) => `add ${name} to its dependencies (peerDependencies for a host the user installs, such as unified or remark)`

/** A small package that breaks one rule each: `files` by the folder it gets, and the lines the check prints about it. */
interface Case {
  name: string
  files: (dir: string) => Record<string, string>
  problems: (dir: string) => string[]
}

const cases: Case[] = [
  {name: 'one that declares what it imports passes', files: (dir) => tiny(dir), problems: () => []},
  {
    name: 'an import that is not declared',
    files: (dir) => tiny(dir, (manifest) => delete manifest.dependencies),
    problems: (dir) => [`packages/${dir}/index.js: imports yaml, which packages/${dir}/package.json does not declare: ${declare('yaml')}`]
  },
  {
    name: 'a type that names a package it does not declare',
    files: (dir) => tiny(dir, undefined, {'index.d.ts': "export declare function read(text: string): import('vfile').VFile\n"}),
    problems: (dir) => [`packages/${dir}/index.d.ts: imports vfile, which packages/${dir}/package.json does not declare: ${declare('vfile')}`]
  },
  {
    name: 'a dependency nothing imports',
    files: (dir) => tiny(dir, (manifest) => (manifest.dependencies = {yaml: '^2.9.1', unified: '^11.0.5'})),
    problems: (dir) => [
      `packages/${dir}/package.json: dependencies has unified, which nothing the package ships imports: remove it (what only the build needs belongs in the root devDependencies)`
    ]
  },
  {
    name: 'no LICENSE, engines, sideEffects or repository',
    files: (dir) => {
      const files = tiny(dir, (manifest) => {
        delete manifest.engines
        delete manifest.sideEffects
        delete manifest.repository
      })
      delete files[`packages/${dir}/LICENSE`]
      return files
    },
    problems: (dir) => [
      `packages/${dir}: ships no LICENSE file, expected one beside its package.json (npm packs it with the package)`,
      `packages/${dir}/package.json: no \`engines.node\`, expected the Node.js versions it runs on, such as ">=20"`,
      `packages/${dir}/package.json: \`repository\` is missing, expected ${JSON.stringify({...repository, directory: `packages/${dir}`})}`,
      `packages/${dir}/package.json: no \`sideEffects\`, expected false when importing it runs nothing but definitions, else the list of files that do more`
    ]
  },
  {
    name: 'engines that allow a Node.js version a dependency does not support',
    files: (dir) => tiny(dir, (manifest) => (manifest.engines = {node: '>=12'})),
    problems: (dir) => [
      `packages/${dir}/package.json: \`engines.node\` is ">=12", which allows Node.js versions its dependencies do not support (yaml@${installed('yaml').version} needs ${JSON.stringify(installed('yaml').engines.node)}): expected a range every one of them allows`
    ]
  },
  {
    name: 'engines that are not a range',
    files: (dir) => tiny(dir, (manifest) => (manifest.engines = {node: 'twenty'})),
    problems: (dir) => [`packages/${dir}/package.json: \`engines.node\` is "twenty", expected a range of Node.js versions, such as ">=20"`]
  },
  {
    name: 'a declaration map without its source',
    files: (dir) =>
      tiny(dir, (manifest) => (manifest.files = ['index.js', 'index.d.ts', 'index.d.ts.map']), {
        'index.d.ts': 'export declare function read(text: string): unknown\n//# sourceMappingURL=index.d.ts.map\n',
        'index.d.ts.map': JSON.stringify({version: 3, file: 'index.d.ts', sources: ['src/index.ts'], names: [], mappings: 'AAAA'})
      }),
    problems: (dir) => [
      `packages/${dir}: ships 1 source map without the sources it points at (index.d.ts.map → src/index.ts): ship the sources (\`inlineSources\`), or turn \`declarationMap\` off and delete the maps an earlier build left in dist/`
    ]
  },
  {
    name: 'a source map that carries its source, and one that lacks one of two',
    files: (dir) =>
      tiny(dir, (manifest) => (manifest.files = ['index.js', 'index.d.ts', 'index.js.map', 'read.js', 'read.js.map']), {
        'index.js': "import {parse} from 'yaml'\n\nexport const read = (text) => parse(text)\n//# sourceMappingURL=index.js.map\n",
        'index.js.map': JSON.stringify({version: 3, file: 'index.js', sources: ['src/index.ts'], sourcesContent: ['export {}\n'], names: [], mappings: 'AAAA'}),
        'read.js': 'export {}\n//# sourceMappingURL=read.js.map\n',
        'read.js.map': JSON.stringify({
          version: 3,
          file: 'read.js',
          sources: ['src/read.ts', 'src/text.ts'],
          sourcesContent: ['export {}\n'],
          names: [],
          mappings: 'AAAA'
        })
      }),
    problems: (dir) => [
      `packages/${dir}: ships 1 source map without the sources it points at (read.js.map → src/text.ts): ship the sources (\`inlineSources\`), or turn \`declarationMap\` off and delete the maps an earlier build left in dist/`
    ]
  },
  {
    name: 'a built file whose source is gone',
    files: (dir) =>
      tiny(
        dir,
        (manifest) => {
          manifest.exports = {'.': {types: './dist/index.d.ts', default: './dist/index.js'}}
          manifest.files = ['dist/']
        },
        {
          'tsconfig.json': '{}\n',
          'index.ts': "export {read} from './read.js'\n",
          'read.ts': "import {parse} from 'yaml'\n\nexport const read = (text: string): unknown => parse(text)\n",
          'dist/index.js': "export {read} from './read.js'\n",
          'dist/index.d.ts': "export {read} from './read.js'\n",
          'dist/read.js': "import {parse} from 'yaml'\nexport const read = (text) => parse(text)\n",
          'dist/read.d.ts': 'export declare const read: (text: string) => unknown\n',
          'dist/old.js': "import {diffLines} from 'diff'\nexport const old = diffLines\n"
        }
      ),
    problems: (dir) => [
      `packages/${dir}: ships 1 built file whose source is gone (dist/old.js), left by an earlier build: delete packages/${dir}/dist and build again`
    ]
  },
  {
    name: 'exports that point at a file it does not ship',
    files: (dir) => tiny(dir, (manifest) => (manifest.exports = {'.': {types: './index.d.ts', default: './main.js'}})),
    problems: (dir) => [`packages/${dir}: publint error: pkg.exports["."].default is ./main.js but the file does not exist.`]
  }
]

/** The folder of the `index`-th case: `tiny-a`, `tiny-b`, … */
const dirOf = (index: number): string => `tiny-${String.fromCharCode(97 + index)}`

/** The lines of `stdout` about the package in `packages/<dir>`. */
const linesAbout = (stdout: string, dir: string): string[] =>
  stdout.split('\n').filter((line) => line.startsWith(`packages/${dir}:`) || line.startsWith(`packages/${dir}/`))

/**
 * One workspace root holds every case and a copy of a real rule whose import
 * is not declared, and the check runs once over all of them (each run packs
 * with npm, which costs most of its time): each case's lines are its own.
 */
let run: Promise<Run> | undefined
const checkAll = (): Promise<Run> =>
  (run ??= (async () => {
    const folder = await fixtureRoot(Object.assign({}, ...cases.map((each, index) => each.files(dirOf(index)))) as Record<string, string>)
    for (const name of ['package.json', 'LICENSE', 'readme.md', 'dist']) {
      await fs.cp(path.join(root, 'packages', rule, name), path.join(folder, 'packages', rule, name), {recursive: true})
    }
    const manifestFile = path.join(folder, 'packages', rule, 'package.json')
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as {dependencies: Record<string, string>}
    expect(manifest.dependencies['@verification-tiers/contracts']).toBeDefined()
    delete manifest.dependencies['@verification-tiers/contracts']
    await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n')
    return check(folder)
  })())

describe('check:packages', () => {
  // That this repository passes (exit 0, no problems) is `npm test`’s own `check:packages` step.
  it('prints every problem of every package, then a count, and exits 1', async () => {
    const problems = cases.reduce((sum, each, index) => sum + each.problems(dirOf(index)).length, 1)
    const {code, stdout, stderr} = await checkAll()
    expect({code, stderr}).toEqual({code: 1, stderr: ''})
    expect(stdout.split('\n').slice(-2)).toEqual([`check-packages: ${cases.length + 1} packages, ${problems} problems`, ''])
    // Nothing but the lines each package earns, and the count.
    const about = [rule, ...cases.map((_, index) => dirOf(index))].flatMap((dir) => linesAbout(stdout, dir))
    expect(about.length).toBe(stdout.split('\n').length - 2)
  })

  it('fails on a copy of a real rule that imports a package it does not declare', async () => {
    expect(linesAbout((await checkAll()).stdout, rule)).toEqual([
      `packages/${rule}/dist/lib/index.js: imports @verification-tiers/contracts, which packages/${rule}/package.json does not declare: ${declare('@verification-tiers/contracts')}`
    ])
  })

  it.for(cases.map((each, index) => ({...each, dir: dirOf(index)})))('$name', async ({dir, problems}) => {
    expect(linesAbout((await checkAll()).stdout, dir)).toEqual(problems(dir))
  })
})

/** `>=20.5.0` → `20.5`, `>=20` → `20`: the lowest version a range allows, as a readme says it. */
function lowest(range: string): string {
  const found = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim())
  if (!found) throw new Error(`Unexpected engines.node ${JSON.stringify(range)}, expected ">=x.y.z" for a package`)
  const [, major, minor = '0', patch = '0'] = found
  return patch !== '0' ? `${major}.${minor}.${patch}` : minor !== '0' ? `${major}.${minor}` : major!
}

describe('the Node.js versions the docs name', () => {
  const manifest = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as {engines: {node: string}}

  it('each package’s readme names the lowest its `engines.node` allows, wherever it says “Node.js x or later”', async () => {
    const said: string[] = []
    for (const dir of (await fs.readdir(path.join(root, 'packages'))).sort()) {
      const readme = path.join(root, 'packages', dir, 'readme.md')
      const engines = manifest(`packages/${dir}/package.json`).engines.node
      for (const [, version] of readFileSync(readme, 'utf8').matchAll(/Node\.js (\d+(?:\.\d+)*) (?:or|and) later/g))
        said.push(`${dir}: ${version} (engines ${engines})`)
      expect(said.filter((line) => line.startsWith(`${dir}: `)).length, `${dir}/readme.md names its Node.js versions`).toBeGreaterThan(0)
    }
    const expected = said.map((line) => {
      const [dir, engines] = /^(\S+): .* \(engines (.+)\)$/.exec(line)!.slice(1) as [string, string]
      return `${dir}: ${lowest(engines)} (engines ${engines})`
    })
    expect(said).toEqual(expected)
  })

  it('the README names the repository’s range for a clone, and the cli’s lowest for a project', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8')
    expect(readme).toContain(`(\`${manifest('package.json').engines.node}\`, what the development tools\nneed)`)
    expect(readme).toContain(`In your project’s folder, with Node.js ${lowest(manifest('packages/cli/package.json').engines.node)} or later:`)
  })
})
