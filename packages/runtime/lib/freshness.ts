/**
 * What the fingerprint of the sources leaves out: the usual output folders
 * and caches by default, and what a project names in `freshness.exclude`,
 * each a path or a name with `*`, `**` and `?` as its wildcards.
 */

/**
 * Left out of the files git does not track (outside git, of every file)
 * unless a project says otherwise: installed packages, build output,
 * coverage, caches the checks rewrite, and the state of every tiers project
 * folder. A name without `/` matches at any depth.
 */
export const defaultFreshnessExclude = [
  'node_modules',
  'bower_components',
  'vendor',
  'dist',
  'build',
  'coverage',
  '.nyc_output',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.next',
  '.nuxt',
  '.turbo',
  '.parcel-cache',
  '.gradle',
  '.cache',
  '.eslintcache',
  '*.tsbuildinfo',
  '**/.greenlight/tiers',
  '**/.kiro/tiers',
  '**/openspec/tiers',
  '**/specs/tiers'
] as const

// Which entries a project may write, checked with its settings.
export {excludePatternProblem, freshnessExcludeRule} from '@verification-tiers/protocol/settings'

/** An exclusion as read: its pattern without a leading or trailing `/`, and whether it is a path from the root (it has a `/`) or a name at any depth. */
export interface ExcludePattern {
  /** As written. */
  text: string
  body: string
  anchored: boolean
}

/** `text` as an exclusion; check it first with `excludePatternProblem`. */
export function parseExcludePattern(text: string): ExcludePattern {
  const trimmed = text.replace(/\/$/, '')
  const anchored = trimmed.includes('/')
  return {text, body: trimmed.replace(/^\//, ''), anchored}
}

/** The regular expression of one name: `*` any characters but `/`, `?` one. */
function segmentSource(segment: string): string {
  return [...segment].map((char) => (char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('')
}

/**
 * A test of a path (relative to the root, `/` between folders) against the
 * exclusions: true when one matches it or a folder above it.
 */
export function excludeMatcher(patterns: readonly ExcludePattern[]): (file: string) => boolean {
  if (patterns.length === 0) return () => false
  const sources = patterns.map(({body, anchored}) => {
    const segments = body.split('/')
    const inner = segments
      .map((segment, index) => {
        const last = index === segments.length - 1
        if (segment === '**') return last ? '.*' : '(?:[^/]+/)*'
        return segmentSource(segment) + (last ? '' : '/')
      })
      .join('')
    return `${anchored ? '' : '(?:[^/]+/)*'}${inner}`
  })
  const regex = new RegExp(`^(?:${sources.join('|')})(?:/.*)?$`, 's')
  return (file) => regex.test(file)
}
