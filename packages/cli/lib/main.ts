import {parseArgs} from 'node:util'
import {GateError, StateError} from '@verification-tiers/runtime'
import {commands, escalationChoices} from './commands.js'
import {exitCodes, ProjectError, UserError} from './errors.js'

export const usage = `Usage: tiers <command> [options]

Commands:
  checkpoint <slice>                      print the slice’s Verify checkpoint (or say it is auto)
  respond <slice> <text…>                 record the user’s reply: approval, or a rejection verbatim
  route <slice> <1|2|3> [--detail <text>] record how to address the latest rejection; print the hand-off
  escalate <slice> <1|2|3>                record the escalation choice (${escalationChoices})
  status [slice]                          tiers, rejection counts, decisions and stale approvals
  report <slice>                          the verifier’s tier report

Options:
  --dir <folder>    project folder (default: .greenlight)
  --json            print JSON for orchestrators
  --detail <text>   the user’s detail, for route 3
  -h, --help        show this help

Exit codes: 0 done, 1 a usage error (unknown slice, bad choice), 2 a broken file.`

/** Output streams, so tests and callers can capture them. */
export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** Run `tiers`; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        dir: {type: 'string', default: '.greenlight'},
        json: {type: 'boolean', default: false},
        detail: {type: 'string'},
        help: {type: 'boolean', short: 'h', default: false}
      }
    })
  } catch (error) {
    io.stderr(`tiers: ${(error as Error).message}`)
    return exitCodes.user
  }
  const {values, positionals} = parsed
  const [name, ...rest] = positionals
  if (values.help || !name) {
    ;(values.help ? io.stdout : io.stderr)(usage)
    return values.help ? exitCodes.ok : exitCodes.user
  }
  const command = commands[name]
  try {
    if (!command) throw new UserError(`Unexpected command \`${name}\`, expected one of: ${Object.keys(commands).join(', ')}`)
    const result = await command({dir: values.dir, positionals: rest, detail: values.detail ?? null})
    for (const warning of result.warnings) io.stderr(`tiers: warning: ${warning}`)
    // A command whose data has its own `warnings` (report) keeps them in the JSON.
    const warnings = 'warnings' in result.data ? result.data.warnings : result.warnings
    io.stdout(values.json ? JSON.stringify({...result.data, warnings}, null, 2) : result.text)
    return exitCodes.ok
  } catch (error) {
    const code = exitCodeOf(error)
    const message = oneLine(error)
    io.stderr(`tiers: ${message}`)
    if (values.json) io.stdout(JSON.stringify({error: {code, message}}, null, 2))
    return code
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof UserError || error instanceof GateError) return exitCodes.user
  if (error instanceof ProjectError || error instanceof StateError) return exitCodes.broken
  return exitCodes.broken
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
