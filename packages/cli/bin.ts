#!/usr/bin/env node
import {main} from './lib/main.js'

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
  report: (text) => process.stderr.write(text),
  write: (text) => process.stdout.write(text)
})
