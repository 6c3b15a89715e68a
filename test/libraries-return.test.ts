/**
 * Libraries return values; programs print and exit. No package but the cli
 * (and a package's own `bin.ts`) ends the process, writes to stdout or
 * stderr, or handles a signal: a library that did would take those choices
 * from every program that uses it. (`process.on('exit')`, which only ends
 * what the process started, is allowed.)
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {root} from './helpers/tiers-bin.js'

const programs = new Set(['cli'])

const forbidden: Array<[string, RegExp]> = [
  ['ends the process', /\bprocess\.exit\s*\(/],
  ['writes to a standard stream', /\bprocess\.(?:stdout|stderr)\b|\bconsole\.\w+\s*\(/],
  ['handles a signal', /\bprocess\.(?:on|once|addListener|prependListener|prependOnceListener)\s*\(\s*(?!['"]exit['"])/]
]

/** The TypeScript sources of a package: not its tests, builds or dependencies, not its bin. */
function sources(folder: string): string[] {
  return readdirSync(folder, {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && file !== 'bin.ts')
    .filter((file) => !file.split(path.sep).some((part) => ['dist', 'test', 'node_modules', 'templates'].includes(part)))
}

describe('libraries return, programs exit', () => {
  const packages = readdirSync(path.join(root, 'packages')).filter((name) => !programs.has(name))

  it('checks every library package', () => {
    expect(packages.length).toBeGreaterThan(20)
  })

  it.each(packages)('%s: no process.exit, no stdout or stderr, no signal handler', (name) => {
    const folder = path.join(root, 'packages', name)
    const found: string[] = []
    for (const file of sources(folder)) {
      readFileSync(path.join(folder, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [what, pattern] of forbidden) if (pattern.test(line)) found.push(`packages/${name}/${file}:${index + 1}: ${what}: ${line.trim()}`)
        })
    }
    expect(found).toEqual([])
  })
})
