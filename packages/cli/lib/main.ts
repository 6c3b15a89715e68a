import {parseArgs} from 'node:util'
import {FileReadError, GateError} from '@verification-tiers/runtime'
import {stringify as stringifyYaml} from 'yaml'
import {commands, escalationChoices, findCommand} from './commands/index.js'
import {exitCodes, firstLine, optionsMessage, ProjectError, UserError} from './errors.js'

export const usage = `Usage: tiers <command> [options]

Commands:
  checkpoint <slice>                      print the slice’s Verify checkpoint (or say it is auto)
  respond <slice> <text…>                 record the user’s reply: approval, or a rejection verbatim
  route <slice> <1|2|3> [--detail <text>] record how to address the latest rejection; print the hand-off
  escalate <slice> <1|2|3>                record the escalation choice (${escalationChoices})
  status [slice]                          tiers, rejection counts, decisions and stale approvals
  report <slice>                          the verifier’s tier report
  contracts [--slice <slice>]             every contract as read: tier, criteria and steps with their lines
  verify <slice> | --all [--timeout <s>]  run the criteria’s checks; record the run for the checkpoint
  stop-hook                               answer a coding agent’s Stop hook (JSON on stdin)
  verdict <text…> | -                     read a verifier’s reply: PASS, PASS_WITH_WARNINGS, FAIL_SOFT, FAIL_HARD
  lint [paths…]                           lint markdown as remark does, faster (see tiers lint --help)

Options:
  --dir <folder>    project folder (default: .greenlight)
  --json            print JSON for orchestrators
  --yaml            print YAML (verify’s result as the status file keeps it)
  --detail <text>   the user’s detail, for route 3
  --timeout <s>     seconds per check (default 60), for verify
  --slice <slice>   one slice’s contracts, for contracts
  --all             every slice, for verify
  -h, --help        show this help

Exit codes: 0 done; 1 a usage error (unknown slice, bad choice), a failed check
or a closed gate (checkpoint without fresh passing verification); 2 a broken file.`

/** Output streams, so tests and callers can capture them. */
export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Standard input (default: the process’s). */
  stdin?: () => Promise<string>
  /** Text for stderr as it is, without a line ending added (default: `stderr` without its last line ending). */
  report?: (text: string) => void
  /** Text for stdout as it is, without a line ending added (default: `stdout` without its last line ending). */
  write?: (text: string) => void
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseTimeout(value: string | undefined): number | null {
  if (value === undefined) return null
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UserError(`Unexpected \`--timeout ${value}\`, expected a number of seconds above 0`)
  return seconds
}

/** Run `tiers`; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  // `lint` takes the remark CLI’s options, not the gate’s; loaded only when asked
  // for, so the gate’s commands start without the remark engine.
  if (argv[0] === 'lint') {
    const {runLint} = await import('./commands/lint.js')
    return runLint(argv.slice(1), {...io, report: io.report ?? ((text) => io.stderr(text.replace(/\n$/, ''))), write: io.write ?? ((text) => io.stdout(text.replace(/\n$/, '')))})
  }
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        dir: {type: 'string'},
        json: {type: 'boolean', default: false},
        yaml: {type: 'boolean', default: false},
        detail: {type: 'string'},
        timeout: {type: 'string'},
        slice: {type: 'string'},
        all: {type: 'boolean', default: false},
        help: {type: 'boolean', short: 'h', default: false}
      }
    })
  } catch (error) {
    io.stderr(`tiers: ${optionsMessage(error)}`)
    return exitCodes.user
  }
  const {values, positionals} = parsed
  const [name, ...rest] = positionals
  if (values.help || !name) {
    ;(values.help ? io.stdout : io.stderr)(usage)
    return values.help ? exitCodes.ok : exitCodes.user
  }
  const command = findCommand(name)
  const format = values.json ? 'json' : values.yaml ? 'yaml' : 'text'
  try {
    // `lint` is dispatched before the gate's options are parsed, but it is a command all the same.
    if (!command) throw new UserError(`Unexpected command \`${name}\`, expected one of: ${[...Object.keys(commands), 'lint'].join(', ')}`)
    if (values.slice !== undefined && name !== 'contracts') throw new UserError(`Unexpected \`--slice\` with \`tiers ${name}\`, expected it only with \`tiers contracts\``)
    const result = await command({
      dir: values.dir ?? null,
      positionals: rest,
      detail: values.detail ?? null,
      timeout: parseTimeout(values.timeout),
      slice: values.slice ?? null,
      all: values.all,
      format,
      stdin: io.stdin ?? readStdin
    })
    for (const warning of result.warnings) io.stderr(`tiers: warning: ${warning}`)
    // A command whose data has its own `warnings` (report) keeps them in the JSON.
    const warnings = 'warnings' in result.data ? result.data.warnings : result.warnings
    const data = {...result.data, warnings}
    // The stop hook speaks its protocol’s JSON, whatever the format asked.
    if (result.raw) io.stdout(JSON.stringify(result.data))
    else if (format === 'json') io.stdout(JSON.stringify(data, null, 2))
    else if (format === 'yaml') io.stdout(stringifyYaml(data).replace(/\n$/, ''))
    else io.stdout(result.text)
    return result.exitCode ?? exitCodes.ok
  } catch (error) {
    const code = exitCodeOf(error)
    const message = firstLine(error)
    io.stderr(`tiers: ${message}`)
    if (format === 'json') io.stdout(JSON.stringify({error: {code, message}}, null, 2))
    else if (format === 'yaml') io.stdout(stringifyYaml({error: {code, message}}).replace(/\n$/, ''))
    return code
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof UserError || error instanceof GateError) return exitCodes.user
  if (error instanceof ProjectError || error instanceof FileReadError) return exitCodes.broken
  return exitCodes.broken
}
