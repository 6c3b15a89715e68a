// The resolve hook of `record-modules.mjs`: each module resolved, appended to the log file.
import {appendFileSync} from 'node:fs'

let log = ''

export function initialize(data) {
  log = data.log
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(log, `${resolved.url}\n`)
  return resolved
}
