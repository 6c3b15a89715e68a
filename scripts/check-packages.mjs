#!/usr/bin/env node
// `npm run check:packages`: check every workspace package (`packages/*/`,
// `templates/`) as the registry would receive it, from the tarball
// `npm pack` makes of it:
//
// * what it ships imports only what its package.json declares
//   (dependencies, peerDependencies, optionalDependencies), and everything
//   declared is imported by something it ships; dependency-cruiser reads the
//   shipped JavaScript and type declarations, so a type that names another
//   package (`import("unified-lint-rule").Plugin`) counts as an import
// * the manifest: `license` and a LICENSE file, `engines.node` (and no Node.js
//   version in it that a package it installs does not support),
//   `repository` (the root's, with the package's folder as `directory`),
//   `sideEffects`, one version for every package and internal dependency
//   ranges on exactly that version, no source map shipped without the
//   sources it points at, and no built file whose source is gone
// * publint (packaging errors) and @arethetypeswrong/core (types that resolve
//   for ESM consumers, under Node.js 16+ and bundlers)
//
// Usage: node scripts/check-packages.mjs [--root <dir>]
// Prints one line per problem and a summary; exits 1 on a problem, 2 when
// the check itself cannot run. Needs no network.
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdtemp, readFile, realpath, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {parseArgs, promisify} from 'node:util'
import {workspaceFolders} from './workspaces.mjs'

const execFileAsync = promisify(execFile)

/** Dependency fields a consumer's install reads. */
const installedFields = ['dependencies', 'peerDependencies', 'optionalDependencies']

/** Resolutions an ESM-only package is not meant for (the `esm-only` profile of attw). */
const ignoredResolutions = new Set(['node10', 'node16-cjs'])

/** Files dependency-cruiser reads: shipped code and type declarations. */
const codeFile = /\.(?:[cm]?js|d\.[cm]?ts)$/

const dependencyRules = [
  {
    name: 'undeclared',
    severity: 'error',
    from: {},
    to: {dependencyTypes: ['npm-no-pkg', 'npm-unknown']}
  },
  {name: 'dev-only', severity: 'error', from: {}, to: {dependencyTypes: ['npm-dev']}},
  {name: 'unresolvable', severity: 'error', from: {}, to: {couldNotResolve: true}}
]

async function main() {
  let root
  try {
    const {values} = parseArgs({options: {root: {type: 'string', default: '.'}}, allowPositionals: false, strict: true})
    root = path.resolve(values.root)
  } catch (error) {
    console.error(`check-packages: ${error.message}`)
    console.error('Usage: node scripts/check-packages.mjs [--root <dir>]')
    return 2
  }
  process.chdir(root)
  const rootManifest = JSON.parse(await readFile('package.json', 'utf8'))
  const packages = await workspacePackages()
  if (packages.length === 0) {
    console.error('check-packages: no workspace package has a package.json')
    return 2
  }
  const destination = await mkdtemp(path.join(os.tmpdir(), 'check-packages-'))
  try {
    await pack(packages, destination)
    const problems = [
      ...manifestProblems(packages, rootManifest),
      ...(await engineProblems(packages, rootManifest)),
      ...staleProblems(packages),
      ...(await mapProblems(packages)),
      ...(await publintProblems(packages)),
      ...(await typesProblems(packages)),
      ...(await dependencyProblems(packages))
    ]
    for (const problem of problems) console.log(problem)
    const count = `${packages.length} package${packages.length === 1 ? '' : 's'}`
    if (problems.length === 0) {
      console.log(`check-packages: ${count}, no problems`)
      return 0
    }
    console.log(`check-packages: ${count}, ${problems.length} problem${problems.length === 1 ? '' : 's'}`)
    return 1
  } finally {
    await rm(destination, {recursive: true, force: true})
  }
}

/** Every workspace package (`packages/<dir>/`, `templates/`), sorted by folder. */
async function workspacePackages() {
  const packages = []
  for (const dir of await workspaceFolders('.')) {
    packages.push({dir, manifest: JSON.parse(await readFile(`${dir}/package.json`, 'utf8')), files: [], stale: [], tarball: ''})
  }
  return packages
}

/** Pack every package once (as `npm publish` would), keeping each one's file list and tarball. */
async function pack(packages, destination) {
  // Without what `npm run` tells its scripts about the project it runs in,
  // so the packages are those of the root checked.
  const env = {...process.env}
  for (const key of Object.keys(env)) if (key === 'npm_config_local_prefix' || key.startsWith('npm_package_')) delete env[key]
  const {stdout} = await execFileAsync('npm', ['pack', '--json', '--pack-destination', destination, ...packages.map((pkg) => path.resolve(pkg.dir))], {
    env,
    maxBuffer: 64 * 1024 * 1024
  })
  const packed = JSON.parse(stdout)
  packages.forEach((pkg, index) => {
    pkg.files = packed[index].files.map((file) => file.path)
    pkg.tarball = path.join(destination, packed[index].filename)
  })
}

function manifestProblems(packages, rootManifest) {
  const problems = []
  const versions = new Map(packages.map((pkg) => [pkg.manifest.name, {version: pkg.manifest.version, dir: pkg.dir}]))
  const release = mostCommon(packages.map((pkg) => pkg.manifest.version))
  const repository = typeof rootManifest.repository === 'object' ? rootManifest.repository : null
  if (!repository)
    problems.push('package.json: no `repository` object, expected {"type": "git", "url": …}, which every package repeats with its folder as `directory`')
  for (const {dir, manifest, files} of packages) {
    const at = `${dir}/package.json`
    if (manifest.private) problems.push(`${at}: \`private\` is true, expected every package under packages/ to be publishable`)
    if (typeof manifest.license !== 'string') problems.push(`${at}: no \`license\`, expected an SPDX identifier such as "MIT"`)
    // npm publishes a scoped package as restricted unless told: `npm publish` would fail without a paid plan.
    if (manifest.name?.startsWith('@') && manifest.publishConfig?.access !== 'public')
      problems.push(`${at}: \`publishConfig.access\` is ${JSON.stringify(manifest.publishConfig?.access) ?? 'missing'}, expected "public" for a scoped package`)
    if (!files.some((file) => /^licen[cs]e(\.|$)/i.test(file))) {
      problems.push(`${dir}: ships no LICENSE file, expected one beside its package.json (npm packs it with the package)`)
    }
    if (typeof manifest.engines?.node !== 'string') {
      problems.push(`${at}: no \`engines.node\`, expected the Node.js versions it runs on, such as ">=20"`)
    }
    const expectedRepository = repository && {type: repository.type, url: repository.url, directory: dir}
    if (expectedRepository && JSON.stringify(manifest.repository) !== JSON.stringify(expectedRepository)) {
      problems.push(`${at}: \`repository\` is ${JSON.stringify(manifest.repository) ?? 'missing'}, expected ${JSON.stringify(expectedRepository)}`)
    }
    if (manifest.sideEffects !== false && !Array.isArray(manifest.sideEffects)) {
      problems.push(`${at}: no \`sideEffects\`, expected false when importing it runs nothing but definitions, else the list of files that do more`)
    }
    if (manifest.version !== release) {
      problems.push(`${at}: version ${manifest.version}, expected ${release} as every other package: they are released together`)
    }
    for (const field of installedFields) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        const internal = versions.get(name)
        if (internal && range !== internal.version) {
          problems.push(`${at}: ${field} has ${name} ${JSON.stringify(range)}, expected ${JSON.stringify(internal.version)}, the version in ${internal.dir}`)
        }
      }
    }
  }
  return problems
}

/**
 * `engines.node` says what the dependencies need: every Node.js version a
 * package allows is one that each package it installs supports (its
 * dependencies, peer and optional dependencies, and theirs, as installed
 * here), by their own `engines.node`. So is the root's, with its
 * devDependencies, when it states one: it is what `npm ci` checks the
 * repository's Node.js against.
 */
async function engineProblems(packages, rootManifest) {
  const {default: semver} = await import('semver')
  const problems = []
  const check = async (at, dir, manifest, fields) => {
    const range = manifest.engines?.node
    if (typeof range !== 'string') return
    if (semver.validRange(range) === null) {
      problems.push(`${at}: \`engines.node\` is ${JSON.stringify(range)}, expected a range of Node.js versions, such as ">=20"`)
      return
    }
    const unsupported = []
    for (const dependency of await installedClosure(dir, manifest, fields)) {
      const needs = dependency.engines?.node
      if (typeof needs === 'string' && semver.validRange(needs) !== null && !semver.subset(range, needs))
        unsupported.push(`${dependency.name}@${dependency.version} needs ${JSON.stringify(needs)}`)
    }
    if (unsupported.length > 0) {
      const shown = unsupported.length > 3 ? `${unsupported.slice(0, 3).join(', ')}, and ${unsupported.length - 3} more` : unsupported.join(', ')
      problems.push(
        `${at}: \`engines.node\` is ${JSON.stringify(range)}, which allows Node.js versions its dependencies do not support (${shown}): expected a range every one of them allows`
      )
    }
  }
  if (existsSync('package.json'))
    await check('package.json', '.', rootManifest, ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'])
  for (const {dir, manifest} of packages) await check(`${dir}/package.json`, dir, manifest, installedFields)
  return problems
}

/**
 * The manifests of the packages `manifest` (in `dir`) installs through
 * `fields`, and those they install, as Node.js finds them from where each
 * is (`node_modules` of its folder and of every folder above); one that is
 * not installed (an optional one, a peer nobody installed) is left out.
 */
async function installedClosure(dir, manifest, fields) {
  const found = new Map()
  const queue = [{from: path.resolve(dir), manifest, fields}]
  while (queue.length > 0) {
    const {from, manifest: current, fields: read} = queue.shift()
    for (const field of read) {
      for (const name of Object.keys(current[field] ?? {})) {
        const folder = installedFolder(from, name)
        if (folder === null) continue
        const real = await realpath(folder)
        if (found.has(real)) continue
        const dependency = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8'))
        found.set(real, dependency)
        queue.push({from: folder, manifest: dependency, fields: installedFields})
      }
    }
  }
  return [...found.values()]
}

/** The folder of package `name` as Node.js resolves it from `from`, or `null`. */
function installedFolder(from, name) {
  for (let folder = from; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'node_modules', name)
    if (existsSync(path.join(candidate, 'package.json'))) return candidate
    if (path.dirname(folder) === folder) return null
  }
}

/**
 * A TypeScript package (one with a tsconfig.json) ships what `tsc` builds
 * from its sources: `dist/<path>.js` and `.d.ts` from `<path>.ts`. A built
 * file whose source is gone was left by an earlier build (tsc does not
 * delete it); it would be published all the same, so it is a problem, and
 * is left out of the dependency check.
 */
function staleProblems(packages) {
  const problems = []
  for (const pkg of packages) {
    if (!existsSync(`${pkg.dir}/tsconfig.json`)) continue
    pkg.stale = pkg.files.filter((file) => {
      const built = /^dist\/(.+?)(?:\.d)?\.([cm]?)js$|^dist\/(.+?)\.d\.([cm]?)ts$/.exec(file)
      if (!built) return false
      const source = built[1] ?? built[3]
      const flavour = built[2] ?? built[4]
      return !existsSync(`${pkg.dir}/${source}.${flavour}ts`) && !existsSync(`${pkg.dir}/${source}.${flavour}tsx`)
    })
    if (pkg.stale.length > 0) {
      const [first] = pkg.stale
      problems.push(
        `${pkg.dir}: ships ${pkg.stale.length} built file${pkg.stale.length === 1 ? '' : 's'} whose source is gone (${first}${pkg.stale.length > 1 ? ', …' : ''}), left by an earlier build: delete ${pkg.dir}/dist and build again`
      )
    }
  }
  return problems
}

/**
 * A shipped source map must carry its sources or point at shipped ones: a map
 * without them sends "go to definition" and a stack trace's TypeScript line
 * nowhere.
 */
async function mapProblems(packages) {
  const problems = []
  for (const {dir, files} of packages) {
    const shipped = new Set(files)
    const orphans = []
    for (const file of files.filter((name) => name.endsWith('.map'))) {
      let map
      try {
        map = JSON.parse(await readFile(path.join(dir, file), 'utf8'))
      } catch {
        problems.push(`${dir}: ships ${file}, which is not a source map`)
        continue
      }
      const sources = map.sources ?? []
      const carried = (index) => typeof map.sourcesContent?.[index] === 'string'
      const missing = sources.filter(
        (source, index) => !carried(index) && !shipped.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), source)))
      )
      if (missing.length > 0) orphans.push(`${file} → ${missing.join(', ')}`)
    }
    if (orphans.length > 0) {
      problems.push(
        `${dir}: ships ${orphans.length} source map${orphans.length === 1 ? '' : 's'} without the sources ${orphans.length === 1 ? 'it points' : 'they point'} at (${orphans[0]}${orphans.length > 1 ? ', …' : ''}): ship the sources (\`inlineSources\`), or turn \`declarationMap\` off and delete the maps an earlier build left in dist/`
      )
    }
  }
  return problems
}

async function publintProblems(packages) {
  const {publint} = await import('publint')
  const {formatMessage} = await import('publint/utils')
  const problems = []
  for (const {dir, tarball} of packages) {
    const data = await readFile(tarball)
    const result = await publint({level: 'suggestion', pack: {tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)}})
    for (const message of result.messages) {
      problems.push(`${dir}: publint ${message.type}: ${formatMessage(message, result.pkg, {color: false}) ?? message.code}`)
    }
  }
  return problems
}

async function typesProblems(packages) {
  const {checkPackage, createPackageFromTarballData} = await import('@arethetypeswrong/core')
  const {problemKindInfo} = await import('@arethetypeswrong/core/problems')
  const problems = []
  for (const {dir, tarball} of packages) {
    const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(tarball))))
    if (!analysis.types) {
      problems.push(`${dir}: ships no type declarations, expected \`types\` conditions in \`exports\``)
      continue
    }
    const seen = new Set()
    for (const problem of analysis.problems) {
      if ('resolutionKind' in problem && ignoredResolutions.has(problem.resolutionKind)) continue
      const where = [problem.entrypoint, problem.resolutionKind].filter(Boolean).join(', ')
      const line = `${dir}: types: ${problemKindInfo[problem.kind]?.description ?? problem.kind}${where ? ` (${where})` : ''}`
      if (!seen.has(line)) problems.push(line)
      seen.add(line)
    }
  }
  return problems
}

/** Imports of shipped files against the package's declared dependencies, both ways. */
async function dependencyProblems(packages) {
  const {cruise} = await import('dependency-cruiser')
  const roots = packages.flatMap(({dir, files, stale}) => files.filter((file) => codeFile.test(file) && !stale.includes(file)).map((file) => `${dir}/${file}`))
  const {output} = await cruise(roots, {
    validate: true,
    ruleSet: {forbidden: dependencyRules},
    // Keep `node_modules/<name>` paths for workspace packages, so an import
    // of a sibling is an npm dependency like any other.
    preserveSymlinks: true,
    doNotFollow: {path: 'node_modules'},
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      mainFields: ['types', 'typings', 'module', 'main']
    }
  })
  const problems = []
  const used = new Map(packages.map((pkg) => [pkg.dir, new Set()]))
  const owner = (file) => packages.find((pkg) => file.startsWith(`${pkg.dir}/`))
  for (const module of output.modules) {
    const pkg = owner(module.source)
    if (!pkg) continue
    for (const dependency of module.dependencies) {
      if (dependency.coreModule || dependency.dependencyTypes.includes('local')) continue
      const name = packageName(dependency)
      if (name) used.get(pkg.dir).add(name)
      const [rule] = (dependency.rules ?? []).map((rule) => rule.name)
      if (rule === 'undeclared') {
        problems.push(
          `${module.source}: imports ${dependency.module}, which ${pkg.dir}/package.json does not declare: add ${name} to its dependencies (peerDependencies for a host the user installs, such as unified or remark)`
        )
      } else if (rule === 'dev-only') {
        problems.push(
          `${module.source}: imports ${dependency.module}, which ${pkg.dir}/package.json declares only in devDependencies: consumers do not install those`
        )
      } else if (rule === 'unresolvable') {
        problems.push(`${module.source}: imports ${dependency.module}, which cannot be resolved from ${pkg.dir}`)
      }
    }
  }
  for (const {dir, manifest} of packages) {
    for (const field of installedFields) {
      for (const name of Object.keys(manifest[field] ?? {})) {
        if (!used.get(dir).has(name)) {
          problems.push(
            `${dir}/package.json: ${field} has ${name}, which nothing the package ships imports: remove it (what only the build needs belongs in the root devDependencies)`
          )
        }
      }
    }
  }
  return problems.sort()
}

/** The package a dependency lands in: the folder after the last `node_modules/`, else the specifier's package part. */
function packageName(dependency) {
  const marker = 'node_modules/'
  const at = dependency.resolved.lastIndexOf(marker)
  const rest = at >= 0 && !dependency.couldNotResolve ? dependency.resolved.slice(at + marker.length) : dependency.module
  const parts = rest.split('/')
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

function mostCommon(values) {
  const counts = new Map()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0][0]
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    console.error(`check-packages: ${error.stack ?? error}`)
    process.exitCode = 2
  }
)
