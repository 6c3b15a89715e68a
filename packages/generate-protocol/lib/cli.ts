import {parseArgs} from 'node:util'
import {GenerateError} from './errors.js'
import {defaultPaths, findStale, generateProtocol, packageTemplatesLabel, projectConfig, renderProtocol} from './generate.js'
import type {GeneratedFile} from './generate.js'
import {FileReadError} from '@verification-tiers/input'

export const usage = `Usage: generate-protocol [--check] [--root <dir>] [--templates <dir>] [--out <dir>] [--partials <file>]
       generate-protocol --project <dir> --out <dir> [--config <file>] [--check] [--root <dir>] [--templates <dir>] [--partials <file>]

Render the protocol docs from Handlebars templates into the output folder,
each under the line budget its template declares.

With --project, render them for a project: from the templates of
${packageTemplatesLabel}, with the project's settings
(\`workflow.rejection_threshold\` of its ${projectConfig}),
into the folder --out names. Without it, render the templates/ folder of
the root into content/, precompile the checkpoint partials and compile the
settings validators for the runtime, as the verification-tiers repository
builds itself.

Options:
  --project <dir>    the project whose settings the docs show (${projectConfig} in it)
  --config <file>    with --project: the settings file to read instead
  --out <dir>        output folder of the docs (default: ${defaultPaths.out}; required with --project)
  --check            write nothing; exit 1 naming the files that are stale
  --root <dir>       folder the other paths are relative to (default: the working directory)
  --templates <dir>  templates folder (default: ${defaultPaths.templates}; with --project, ${packageTemplatesLabel})
  --partials <file>  precompiled partials module (default: ${defaultPaths.partials}; with --project, none)
  -h, --help         show this help`

/** Output streams, so tests and callers can capture them. */
export interface Io {
  stdout: (line: string) => void
  stderr: (line: string) => void
}

/** Run the command; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let values
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        check: {type: 'boolean', default: false},
        project: {type: 'string'},
        config: {type: 'string'},
        root: {type: 'string'},
        templates: {type: 'string'},
        out: {type: 'string'},
        partials: {type: 'string'},
        help: {type: 'boolean', short: 'h', default: false}
      }
    }).values
  } catch (error) {
    io.stderr(`generate-protocol: ${(error as Error).message}`)
    io.stderr(usage)
    return 2
  }
  if (values.help) {
    io.stdout(usage)
    return 0
  }
  const options = {
    root: values.root,
    project: values.project,
    config: values.config,
    templates: values.templates,
    out: values.out,
    partials: values.partials
  }
  try {
    if (values.check) {
      const stale = await findStale(await renderProtocol(options), values.root)
      if (stale.length > 0) {
        // The repository's own docs regenerate with its npm script; a project's with the same command, without --check.
        const command =
          values.project === undefined ? 'npm run generate-protocol' : ['generate-protocol', ...argv.filter((arg) => arg !== '--check').map(quote)].join(' ')
        io.stderr(`generate-protocol: stale: ${stale.map((file) => file.file).join(', ')}; run \`${command}\` and commit the result`)
        return 1
      }
      io.stdout('generate-protocol: up to date')
      return 0
    }
    const {files, written} = await generateProtocol(options)
    for (const file of files) io.stdout(`${written.includes(file) ? 'wrote' : 'unchanged'} ${file.file}${budgetNote(file)}`)
    return 0
  } catch (error) {
    if (error instanceof GenerateError || error instanceof FileReadError) {
      for (const line of error.message.split('\n')) io.stderr(`generate-protocol: ${line}`)
      return error instanceof GenerateError && error.usage ? 2 : 1
    }
    io.stderr(`generate-protocol: ${(error as Error).message ?? String(error)}`)
    return 1
  }
}

function budgetNote(file: GeneratedFile): string {
  return file.budget === null ? '' : ` (${file.lines}/${file.budget} lines)`
}

/** An argument as a POSIX shell reads it back. */
function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`
}
