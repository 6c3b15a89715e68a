import {createHash} from 'node:crypto'

/** Hash of a slice’s contracts as written: any change to them makes an earlier decision stale. */
export function hashContracts(sources: readonly string[]): string {
  const hash = createHash('sha256')
  for (const source of sources) hash.update(source.replace(/\r\n/g, '\n')).update('\0')
  return 'sha256:' + hash.digest('hex')
}
