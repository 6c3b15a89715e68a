#!/usr/bin/env node
// `npm run pack:release`: write the release set into `release/`, one tarball
// per package of this repository, named without its version
// (`release/verification-tiers-cli.tgz`), that installs with
// `npm install --save-dev <tarball>` in any project while the packages are
// not on the registry.
//
// Each package depends on exact versions of other packages of this
// repository (`@verification-tiers/contracts` at the one version of them all, `remark-lint-*`), which
// the registry does not have yet. So each tarball carries them: the package
// is staged outside the repository with every package of this repository it
// needs, directly or through another, unpacked into its `node_modules/`, and
// packed with those named in `bundleDependencies`. What they need from
// outside (unified, remark-parse, …) is not carried: npm installs it from the
// registry. npm (11) installs only the dependencies of the package it is
// given, not those of the packages it carries, so the staged package.json
// also lists, as its own, the outside dependencies and peer dependencies of
// every package it carries (a name asked for with two ranges is an error).
//
// The workspace packages (`packages/*/`, `templates/`) are not changed: they
// are packed as they are (`npm pack`, their `files`), and only the staged
// copy's package.json gets `bundleDependencies`. Build first (`npm run build`); `npm run pack:release`
// does.
//
// Usage: node scripts/pack-release.mjs [--root <dir>] [--out <dir>]
// (`--root`: the repository, default this one; `--out`: default
// `<root>/release`). Prints one line per tarball; exits 1 when a package
// cannot be packed.
import {execFile} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs, promisify} from 'node:util'
import {workspaceFolders} from './workspaces.mjs'

const execFileAsync = promisify(execFile)

/** The name of a package's release tarball: `@verification-tiers/cli` → `verification-tiers-cli.tgz`. */
export function releaseFileName(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}.tgz`
}

/** Every workspace package of the repository: name, folder, manifest. */
async function readWorkspaces(repo) {
  const packages = []
  for (const folder of await workspaceFolders(repo)) {
    const manifest = JSON.parse(await fs.readFile(path.join(repo, folder, 'package.json'), 'utf8'))
    if (manifest.private) throw new Error(`${folder}/package.json: Unexpected \`private: true\`, expected a package that can be published`)
    packages.push({name: manifest.name, dir: path.join(repo, folder), manifest})
  }
  return packages
}

/** The packages of the repository `name` needs, directly or through another, in name order. */
function internalClosure(name, byName) {
  const found = new Set()
  const visit = (from) => {
    const {dependencies = {}, peerDependencies = {}} = byName.get(from).manifest
    for (const dependency of Object.keys({...dependencies, ...peerDependencies})) {
      if (!byName.has(dependency) || found.has(dependency)) continue
      found.add(dependency)
      visit(dependency)
    }
  }
  visit(name)
  return [...found].sort()
}

/**
 * The staged manifest: `manifest` with `bundleDependencies` (its direct
 * dependencies of the repository) and, beside its own, the outside
 * dependencies and peer dependencies of every package it carries.
 */
export function stagedManifest(manifest, carried, isInternal) {
  const dependencies = {...manifest.dependencies}
  const peerDependencies = {...manifest.peerDependencies}
  const peerDependenciesMeta = {...manifest.peerDependenciesMeta}
  const add = (into, name, range, from) => {
    if (into[name] !== undefined && into[name] !== range) {
      throw new Error(`Unexpected ${name}@${range} in ${from}, expected the range ${manifest.name} carries it at, ${into[name]}: give both the same range`)
    }
    into[name] = range
  }
  for (const pkg of carried) {
    for (const [name, range] of Object.entries(pkg.dependencies ?? {})) if (!isInternal(name)) add(dependencies, name, range, pkg.name)
  }
  for (const pkg of carried) {
    for (const [name, range] of Object.entries(pkg.peerDependencies ?? {})) {
      if (isInternal(name) || dependencies[name] !== undefined) continue
      add(peerDependencies, name, range, pkg.name)
      if (pkg.peerDependenciesMeta?.[name]) peerDependenciesMeta[name] = pkg.peerDependenciesMeta[name]
    }
  }
  const staged = {...manifest, dependencies: sortKeys(dependencies)}
  const bundled = Object.keys(manifest.dependencies ?? {})
    .filter(isInternal)
    .sort()
  if (bundled.length > 0) staged.bundleDependencies = bundled
  if (Object.keys(peerDependencies).length > 0) staged.peerDependencies = sortKeys(peerDependencies)
  if (Object.keys(peerDependenciesMeta).length > 0) staged.peerDependenciesMeta = sortKeys(peerDependenciesMeta)
  return staged
}

function sortKeys(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)))
}

/** `npm pack` folders into `destination`; the tarballs' file names, in the folders' order. */
async function npmPack(folders, destination) {
  const {stdout} = await execFileAsync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...folders], {
    cwd: destination,
    maxBuffer: 64 * 1024 * 1024
  })
  return JSON.parse(stdout).map((entry) => path.join(destination, entry.filename))
}

/** Unpack a tarball made by `npm pack` (its files under `package/`) into `folder`. */
async function unpack(tarball, folder) {
  await fs.mkdir(folder, {recursive: true})
  await execFileAsync('tar', ['-xzf', tarball, '-C', folder, '--strip-components=1'])
}

async function main() {
  let repo
  let out
  try {
    const {values} = parseArgs({
      options: {root: {type: 'string', default: path.dirname(path.dirname(fileURLToPath(import.meta.url)))}, out: {type: 'string'}},
      allowPositionals: false,
      strict: true
    })
    repo = path.resolve(values.root)
    out = path.resolve(values.out ?? path.join(repo, 'release'))
  } catch (error) {
    console.error(`pack-release: ${error.message}`)
    console.error('Usage: node scripts/pack-release.mjs [--root <dir>] [--out <dir>]')
    return 1
  }

  const workspaces = await readWorkspaces(repo)
  const byName = new Map(workspaces.map((pkg) => [pkg.name, pkg]))
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-release-'))
  try {
    // Each package as the registry would get it.
    const packs = path.join(scratch, 'packs')
    await fs.mkdir(packs)
    const tarballs = await npmPack(
      workspaces.map((pkg) => pkg.dir),
      packs
    )
    const tarballOf = new Map(workspaces.map((pkg, index) => [pkg.name, tarballs[index]]))

    // Each staged with what it needs of the repository in its node_modules.
    const staged = []
    for (const [index, pkg] of workspaces.entries()) {
      const stage = path.join(scratch, 'stage', String(index))
      await unpack(tarballOf.get(pkg.name), stage)
      const carried = internalClosure(pkg.name, byName)
      for (const name of carried) await unpack(tarballOf.get(name), path.join(stage, 'node_modules', name))
      const manifestFile = path.join(stage, 'package.json')
      const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'))
      const staging = stagedManifest(
        manifest,
        carried.map((name) => byName.get(name).manifest),
        (name) => byName.has(name)
      )
      await fs.writeFile(manifestFile, JSON.stringify(staging, null, 2) + '\n')
      staged.push({pkg, stage, carried})
    }

    const packed = await npmPack(
      staged.map(({stage}) => stage),
      packs
    )
    await fs.rm(out, {recursive: true, force: true})
    await fs.mkdir(out, {recursive: true})
    for (const [index, {pkg, carried}] of staged.entries()) {
      const file = path.join(out, releaseFileName(pkg.name))
      await fs.copyFile(packed[index], file)
      const carrying = carried.length === 0 ? '' : `, carrying ${carried.length} package${carried.length === 1 ? '' : 's'} of this repository`
      console.log(`${path.relative(process.cwd(), file)}: ${pkg.name}@${pkg.manifest.version}${carrying}`)
    }
    return 0
  } finally {
    await fs.rm(scratch, {recursive: true, force: true})
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error) => {
      console.error(`pack-release: ${error.message}`)
      process.exitCode = 1
    }
  )
}
