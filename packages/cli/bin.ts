#!/usr/bin/env node
import type {Io} from './lib/main.js'

const io: Required<Omit<Io, 'stdin'>> = {
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
  report: (text) => process.stderr.write(text),
  write: (text) => process.stdout.write(text)
}
const args = process.argv.slice(2)

// `tiers lint` loads the lint engine alone: none of the gate’s packages, which `main` loads for the other commands.
process.exitCode =
  args[0] === 'lint' ? await (await import('./lib/commands/lint.js')).runLint(args.slice(1), io) : await (await import('./lib/main.js')).main(args, io)
