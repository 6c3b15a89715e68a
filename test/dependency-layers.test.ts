/**
 * The dependency check (`npm run check:deps`, dependency-cruiser with
 * `.dependency-cruiser.cjs`) holds the layers of ARCHITECTURE.md: the
 * repository passes it, and each of these fails it, naming the rule: an
 * import cycle, the generator importing the runtime (which loads the
 * partials it writes, so regenerating would need a build before and after),
 * a package importing the generator, a package but the runtime loading the
 * partials, a module but the protocol's settings reader loading the
 * settings validators, a lint rule or its factory importing `fs`, the
 * readers of tools' files importing a package but the model, or `fs`, or
 * the model importing them. depcruise exits with the number of errors.
 *
 * dependency-cruiser runs through its API (`cruise`, with the options
 * `depcruise` reads from the configuration), loaded once for the file: the
 * results and exit code the CLI gives, without a process of its own.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {root} from './helpers/tiers-bin.js'

const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

const config = path.join(root, '.dependency-cruiser.cjs')

/** `depcruise packages --config .dependency-cruiser.cjs` run in a folder: its exit code and its `err` output. */
type Depcruise = (folder: string) => Promise<{code: number; stdout: string}>

let cruiser: Promise<Depcruise> | undefined
/** dependency-cruiser's `cruise` with the options the CLI reads from the configuration, each loaded once. */
function loadCruiser(): Promise<Depcruise> {
  cruiser ??= (async () => {
    const [{cruise}, {default: extractOptions}] = await Promise.all([
      import('dependency-cruiser'),
      import('dependency-cruiser/config-utl/extract-depcruise-options')
    ])
    const options = await extractOptions(config)
    return async (folder) => {
      const {output, exitCode} = await cruise(['packages'], {...options, outputType: 'err', baseDir: folder})
      return {code: exitCode, stdout: String(output)}
    }
  })()
  return cruiser
}

const depcruise: Depcruise = async (folder) => (await loadCruiser())(folder)

/** The check run on a tree of `packages/` holding `files`: its exit code and the rules it names, with the importing file, sorted (depcruise lists them in no set order). */
async function check(files: Record<string, string>): Promise<{code: number; errors: string[]}> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-layers-'))
  folders.push(folder)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, file)), {recursive: true})
    await fs.writeFile(path.join(folder, file), text)
  }
  const run = await depcruise(folder)
  const errors = [...run.stdout.matchAll(/error (\S+): (\S+)/g)].map(([, rule, from]) => `${rule}: ${from}`)
  return {code: run.code, errors: errors.sort()}
}

describe('the dependency check', () => {
  it('passes on the repository', async () => {
    const run = await depcruise(root)
    expect(run.stdout).toContain('no dependency violations found')
    expect(run.code).toBe(0)
  })

  it('fails on an import cycle between two packages', async () => {
    expect(
      await check({
        'packages/graph/lib/a.ts': "import {b} from '../../lint-rule/lib/b.js'\nexport const a = (): unknown => b\n",
        'packages/lint-rule/lib/b.ts': "import {a} from '../../graph/lib/a.js'\nexport const b = (): unknown => a\n"
      })
    ).toEqual({code: 2, errors: ['graph-on-the-model: packages/graph/lib/a.ts', 'no-cycle: packages/graph/lib/a.ts']})
  })

  it('fails on an import cycle inside one package', async () => {
    expect(
      await check({
        'packages/runtime/lib/a.ts': "import {b} from './b.js'\nexport const a = (): unknown => b\n",
        'packages/runtime/lib/b.ts': "import {a} from './a.js'\nexport const b = (): unknown => a\n"
      })
    ).toEqual({code: 1, errors: ['no-cycle: packages/runtime/lib/a.ts']})
  })

  it('fails when the generator imports the runtime, or any package imports the generator', async () => {
    expect(
      await check({
        'packages/generate-protocol/lib/generate.ts': "import {config} from '../../runtime/lib/config.js'\nexport const generate = (): unknown => config\n",
        'packages/runtime/lib/config.ts': 'export const config = 1\n',
        'packages/cli/lib/docs.ts': "import {generate} from '../../generate-protocol/lib/generate.js'\nexport const docs = (): unknown => generate\n"
      })
    ).toEqual({
      code: 2,
      errors: ['generator-below-what-it-writes: packages/generate-protocol/lib/generate.ts', 'generator-imported-by-none: packages/cli/lib/docs.ts']
    })
  })

  /** A generated module of the protocol package (`partials`, `settings-validators`), its declaration, and a module importing it from `from` (a path under `packages/`). */
  const generated = (name: string, exported: string, from: string) => {
    const target = path.posix.relative(path.posix.dirname(from), `packages/protocol/${name}.js`)
    return {
      [`packages/protocol/${name}.d.ts`]: `export declare const ${exported}: Readonly<Record<string, unknown>>\n`,
      [`packages/protocol/${name}.generated.js`]: `export const ${exported} = {}\n`,
      [from]: `import {${exported}} from '${target.startsWith('.') ? target : `./${target}`}'\nexport const loaded = (): unknown => ${exported}\n`
    }
  }

  it.each([
    [
      'a package but the runtime loads the generated partials',
      'partials',
      'partialSpecs',
      'packages/runtime/lib/checkpoint.ts',
      'packages/protocol/lib/words.ts',
      'partials-for-the-runtime'
    ],
    [
      'a module but the settings reader loads the compiled settings validators',
      'settings-validators',
      'settingsValidators',
      'packages/protocol/lib/settings.ts',
      'packages/generate-protocol/lib/generate.ts',
      'validators-for-the-settings'
    ]
  ])('fails when %s', async (_what, name, exported, allowed, refused, rule) => {
    expect(await check({...generated(name, exported, allowed), ...generated(name, exported, refused)})).toEqual({code: 1, errors: [`${rule}: ${refused}`]})
  })

  it('fails when a rule, the rules’ factory or a preset imports `fs`, by any of its names', async () => {
    expect(
      await check({
        'packages/lint-rule/lib/graph.ts': "import {statSync} from 'node:fs'\nexport const stat = (): unknown => statSync\n",
        'packages/remark-lint-ears-shall/lib/index.ts': "import {readFile} from 'fs/promises'\nexport const read = (): unknown => readFile\n",
        'packages/remark-preset-lint-verification-tiers/lib/index.ts': "import fs from 'node:fs/promises'\nexport const files = (): unknown => fs\n",
        'packages/lint/lib/engine.ts': "import {readFileSync} from 'node:fs'\nexport const read = (): unknown => readFileSync\n"
      })
    ).toEqual({
      code: 3,
      errors: [
        'rules-read-no-file: packages/lint-rule/lib/graph.ts',
        'rules-read-no-file: packages/remark-lint-ears-shall/lib/index.ts',
        'rules-read-no-file: packages/remark-preset-lint-verification-tiers/lib/index.ts'
      ]
    })
  })

  it('fails when the readers of tools’ files import anything but the model, or `fs`, or the model imports them', async () => {
    expect(
      await check({
        'packages/spec-tools/lib/kiro.ts': "import {graph} from '../../graph/lib/graph.js'\nexport const kiro = (): unknown => graph\n",
        'packages/spec-tools/lib/files.ts': "import {readFileSync} from 'node:fs'\nexport const read = (): unknown => readFileSync\n",
        'packages/graph/lib/graph.ts': 'export const graph = 1\n',
        'packages/contracts/lib/extract.ts': "import {kiro} from '../../spec-tools/lib/kiro.js'\nexport const extract = (): unknown => kiro\n"
      })
    ).toEqual({
      code: 3,
      errors: [
        'model-at-the-bottom: packages/contracts/lib/extract.ts',
        'tool-readers-on-the-model: packages/spec-tools/lib/files.ts',
        'tool-readers-on-the-model: packages/spec-tools/lib/kiro.ts'
      ]
    })
  })
})
