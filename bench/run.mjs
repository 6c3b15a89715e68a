// `npm run bench`: every benchmark, one after the other (they share two cores).
import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
for (const script of ['corpus.mjs', 'checkpoint.mjs', 'settings.mjs', 'fingerprint.mjs', 'lint.mjs', 'parse.mjs', 'hook.mjs']) {
  console.log(`\n# ${script}\n`)
  const result = spawnSync(process.execPath, [path.join(here, script)], {stdio: 'inherit'})
  if (result.status !== 0) process.exit(result.status ?? 1)
}
