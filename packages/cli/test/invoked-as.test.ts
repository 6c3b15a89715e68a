import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {invokedAs} from '../lib/invoked-as.js'

describe('invokedAs', () => {
  const project = path.resolve('/work/shop')
  const local = path.join(project, 'node_modules', '@verification-tiers', 'cli', 'bin', 'tiers.js')

  it('is `npx tiers` for the project’s own install, from the project or below it', () => {
    expect(invokedAs(local, project)).toBe('npx tiers')
    expect(invokedAs(local, path.join(project, 'src', 'deep'))).toBe('npx tiers')
    // Through the link npm makes in node_modules/.bin too.
    expect(invokedAs(path.join(project, 'node_modules', '.bin', 'tiers'), project)).toBe('npx tiers')
  })

  it('is `tiers` for a global install, another project’s, or a checkout’s own bin', () => {
    expect(invokedAs(path.resolve('/usr/lib/node_modules/@verification-tiers/cli/bin/tiers.js'), project)).toBe('tiers')
    expect(invokedAs(local, path.resolve('/work/other'))).toBe('tiers')
    expect(invokedAs(path.resolve('/work/verification-tiers/packages/cli/bin/tiers.js'), project)).toBe('tiers')
    expect(invokedAs('', project)).toBe('tiers')
  })
})
