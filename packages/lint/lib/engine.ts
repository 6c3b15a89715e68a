import type {Root} from 'mdast'
import {projectGraphs} from '@verification-tiers/graph/remark'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import type {Plugin, Processor} from 'unified'
import {engine} from 'unified-engine'
import type {Options as EngineOptions} from 'unified-engine'
import type {VFile} from 'vfile'
import markdownExtensions from 'markdown-extensions'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import type {LintSettings} from './settings.js'

/**
 * Run unified-engine and resolve to the files it would report: a reporter
 * receives exactly those (given, not ignored, in order), so this one keeps
 * them and prints nothing; `tiers lint` formats them afterwards.
 */
function runEngine(options: EngineOptions): Promise<VFile[]> {
  return new Promise((resolve, reject) => {
    let reported: VFile[] = []
    engine(
      {
        ...options,
        reporter(files) {
          reported = files
          return ''
        }
      },
      (error) => (error ? reject(error) : resolve(reported))
    )
  })
}

/** Where the files come from: the user’s paths and globs, or files already read. */
export type LintInput = {paths: string[]} | {files: VFile[]}

/**
 * The remark CLI’s processor, `remark`, less its compiler: the engine runs
 * with no output, so it never compiles, and the compiler is 52 of the 370
 * modules a run would load.
 */
const remarkParser = unified().use(remarkParse).freeze()

/**
 * Lint as the remark CLI does: the same engine, with the same configuration
 * files, ignore files, plugins and default configuration; and, besides, the
 * rules are given each file's slice graph, each graph read once in the run.
 */
export function lintWithEngine(settings: LintSettings, input: LintInput): Promise<VFile[]> {
  const given = 'paths' in input
  return runEngine({
    ...remarkEngineOptions(settings),
    processor: remarkParser().data('verificationTiers', projectGraphs()),
    files: given ? input.paths : input.files,
    // Files already read were found, and ignore files applied, on the first pass.
    detectIgnore: given ? settings.detectIgnore : false,
    ignorePath: given ? settings.ignorePath : undefined,
    ignorePatterns: given ? settings.ignorePatterns : [],
    silentlyIgnore: !given
  })
}

/** A parser that reads nothing: finding the files needs their text, not their trees. */
const parseNothing: Plugin<[], string, Root> = function () {
  ;(this as unknown as Processor<Root>).parser = () => ({type: 'root', children: []})
}

/**
 * The files the remark CLI would lint for the user’s paths, each read, with
 * nothing run on them. A file that cannot be linted (missing, unreadable,
 * given but ignored) carries the remark CLI’s fatal message.
 */
export function findFiles(settings: LintSettings): Promise<VFile[]> {
  return runEngine({
    ...remarkEngineOptions(settings),
    processor: unified().use(parseNothing),
    files: settings.files,
    detectConfig: false,
    rcPath: undefined,
    defaultConfig: undefined,
    detectIgnore: settings.detectIgnore,
    ignorePath: settings.ignorePath,
    ignorePatterns: settings.ignorePatterns
  })
}

/**
 * Engine options the remark CLI uses (remark-cli passes these to
 * unified-args), so that `tiers lint` reads the same configuration and ignore
 * files. Where no configuration is found, the verification-tiers preset runs.
 */
export function remarkEngineOptions(settings: Pick<LintSettings, 'cwd' | 'detectConfig' | 'rcPath'>): Omit<EngineOptions, 'processor'> {
  return {
    cwd: settings.cwd,
    extensions: markdownExtensions,
    ignoreName: '.remarkignore',
    packageField: 'remarkConfig',
    pluginPrefix: 'remark',
    rcName: '.remarkrc',
    rcPath: settings.rcPath,
    detectConfig: settings.detectConfig,
    defaultConfig: {plugins: [remarkPresetLintVerificationTiers]},
    out: false,
    output: false
  }
}
