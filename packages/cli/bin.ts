#!/usr/bin/env node
import type {Io} from './lib/main.js'

const io: Required<Omit<Io, 'stdin' | 'readLine'>> = {
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
  report: (text) => process.stderr.write(text),
  write: (text) => process.stdout.write(text),
  // Only here is it asked whether the streams are a terminal: the commands are told, so tests can say either.
  terminal: {
    stdout: process.stdout.isTTY ? {columns: process.stdout.columns || 80} : null,
    stderr: Boolean(process.stderr.isTTY),
    stdin: Boolean(process.stdin.isTTY)
  }
}
const args = process.argv.slice(2)

// `tiers lint` and `tiers init` load their own packages alone: none of the gate’s, which `main` loads for the other commands.
async function run(): Promise<number> {
  if (args[0] === 'lint') return (await import('./lib/commands/lint-command.js')).lintCommand(args.slice(1), io)
  if (args[0] === 'init') return (await import('./lib/commands/init.js')).runInit(args.slice(1), io)
  return (await import('./lib/main.js')).main(args, io)
}

process.exitCode = await run()
