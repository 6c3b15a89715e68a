// `tiers` in this process: the built cli's `main` (what the bin runs after it
// starts) with the bin's streams, in a folder, with the environment the bin
// would get. For runs of what a command does with a project, where starting
// a process for each would cost most of the time: `npm run check:corpus`,
// and the tests (`test/helpers/tiers-here.ts`). What a process brings (the
// bin's own start, signals, exit codes set by Node, standard input as a
// stream) is not here: the tests of the bin cover it.
//
// The working folder and the environment are the process's own, so runs
// take turns: each waits for the one before it to end. Build first
// (`npx tsc -b`): this loads `packages/cli/dist`.
import {Readable} from 'node:stream'
import {format} from 'node:util'

let cli
const loadCli = () =>
  (cli ??= Promise.all([import('../packages/cli/dist/lib/main.js'), import('../packages/cli/dist/lib/stdin.js')]).then(([main, stdin]) => ({
    main: main.main,
    readInput: stdin.readInput,
    readLine: stdin.readLine
  })))

let queue = Promise.resolve()

/** Run `work` after every run queued before it. */
function inTurn(work) {
  const next = queue.then(work, work)
  queue = next.catch(() => {})
  return next
}

/** Set `changes` in `process.env` (`undefined` removes); returns what puts it back. */
function changeEnvironment(changes) {
  const before = new Map(Object.keys(changes).map((name) => [name, process.env[name]]))
  const set = (name, value) => {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  for (const [name, value] of Object.entries(changes)) set(name, value)
  return () => {
    for (const [name, value] of before) set(name, value)
  }
}

/**
 * Run `tiers args` in `cwd`, with `input` as its standard input (and its
 * first line as what the person types for `tiers review`); `env` adds to
 * (or, as `undefined`, removes from) the environment. Standard input is a
 * terminal unless `terminal` is false. Resolves to the exit code and what
 * was written to stdout and stderr.
 */
export function runTiersInProcess(cwd, args, {input = '', env = {}, terminal = true} = {}) {
  return inTurn(async () => {
    const {main, readInput, readLine} = await loadCli()
    let stdout = ''
    let stderr = ''
    const restore = changeEnvironment(env)
    const folder = process.cwd()
    try {
      process.chdir(cwd)
      // As the bin's streams: `console.log` and `console.error` for lines, the raw streams for reports.
      const code = await main(args, {
        stdout: (text) => (stdout += format(text) + '\n'),
        stderr: (text) => (stderr += format(text) + '\n'),
        report: (text) => (stderr += text),
        write: (text) => (stdout += text),
        stdin: (limitBytes) => readInput(limitBytes, Readable.from([Buffer.from(input)])),
        readLine: () => readLine(undefined, Readable.from([Buffer.from(input)])),
        terminal: {stdout: null, stderr: false, stdin: terminal}
      })
      return {code, stdout, stderr}
    } finally {
      process.chdir(folder)
      restore()
    }
  })
}
