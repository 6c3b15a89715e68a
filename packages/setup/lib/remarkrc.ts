import type {Step} from './files.js'
import isRecord from 'is-plain-obj'
import {FileReadError} from '@verification-tiers/input/read'
import {parseJsonFile, readIfPresent, setJson, toJson} from './files.js'

/** The preset `tiers init` adds, by the name a `.remarkrc` uses. */
export const presetName = 'remark-preset-lint-verification-tiers'

// The strict preset includes the preset: either one is enough.
const presetNames = new Set([presetName, `${presetName}-strict`, 'preset-lint-verification-tiers', 'preset-lint-verification-tiers-strict'])

// Configuration files unified-engine reads for remark, besides package.json; the first found is used.
const jsonNames = ['.remarkrc', '.remarkrc.json']
const otherNames = ['.remarkrc.cjs', '.remarkrc.mjs', '.remarkrc.js', '.remarkrc.yaml', '.remarkrc.yml']

/** Whether a `plugins` value (a list, or an object of names) already has the preset. */
function hasPreset(plugins: unknown): boolean {
  if (Array.isArray(plugins)) return plugins.some((entry) => presetNames.has(String(Array.isArray(entry) ? entry[0] : entry)))
  return isRecord(plugins) && Object.keys(plugins).some((name) => presetNames.has(name))
}

/** `text` with the preset added to the plugins of the configuration at `at`, or why it cannot be. */
function withPreset(file: string, text: string, at: Array<string | number>, where: string, config: unknown): string {
  if (!isRecord(config)) throw new FileReadError(file, `Unexpected ${where} that is not an object, expected an object with \`plugins\``)
  const plugins = config.plugins
  if (plugins === undefined) return setJson(text, [...at, 'plugins'], [presetName])
  if (Array.isArray(plugins)) return setJson(text, [...at, 'plugins', -1], presetName)
  if (isRecord(plugins)) return setJson(text, [...at, 'plugins', presetName], null)
  throw new FileReadError(file, `Unexpected \`plugins\` in ${where} that is not a list, expected a list of plugins`)
}

/**
 * The remark configuration step: the preset added to the configuration the
 * remark CLI would read in the project folder (`.remarkrc`, `.remarkrc.json`
 * or `package.json#remarkConfig`, merged, nothing else changed), or a new
 * `.remarkrc.json`. A configuration in JavaScript or YAML is not rewritten:
 * a note says what to add.
 */
export async function planRemarkrc(cwd: string): Promise<Step> {
  for (const name of jsonNames) {
    const text = await readIfPresent(cwd, name)
    if (text === null) continue
    // `.remarkrc` may be YAML; only JSON is merged.
    if (name === '.remarkrc' && !/^\s*[{[]/.test(text)) return {kind: 'note', text: `${name} is not JSON: add \`${presetName}\` to its plugins yourself`}
    const config = parseJsonFile(name, text)
    if (isRecord(config) && hasPreset(config.plugins)) return {kind: 'unchanged', file: name, reason: 'the preset is already there'}
    return {
      kind: 'write',
      planned: {file: name, before: text, after: withPreset(name, text, [], 'the configuration', config), change: `added ${presetName} to its plugins`}
    }
  }
  for (const name of otherNames) {
    if ((await readIfPresent(cwd, name)) !== null) return {kind: 'note', text: `${name} is read first: add \`${presetName}\` to its plugins yourself`}
  }
  const manifestText = await readIfPresent(cwd, 'package.json')
  if (manifestText !== null) {
    const manifest = parseJsonFile('package.json', manifestText)
    if (isRecord(manifest) && manifest.remarkConfig !== undefined) {
      if (isRecord(manifest.remarkConfig) && hasPreset(manifest.remarkConfig.plugins))
        return {kind: 'unchanged', file: 'package.json', reason: 'the preset is already in `remarkConfig`'}
      const after = withPreset('package.json', manifestText, ['remarkConfig'], '`remarkConfig`', manifest.remarkConfig)
      return {kind: 'write', planned: {file: 'package.json', before: manifestText, after, change: `added ${presetName} to the plugins of \`remarkConfig\``}}
    }
  }
  return {kind: 'write', planned: {file: '.remarkrc.json', before: null, after: toJson({plugins: [presetName]}), change: `lints markdown with ${presetName}`}}
}
