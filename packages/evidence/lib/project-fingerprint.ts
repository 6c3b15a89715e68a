import path from 'node:path'
import type {Project} from '@verification-tiers/project'
import {projectFreshnessExclude, projectTestCommand, stateFolder} from '@verification-tiers/runtime'
import {sourceFingerprint} from './fingerprint.js'
import type {SourceFingerprint} from './fingerprint.js'

/** The folder criteria run in: the one holding the project folder. */
export function projectRoot(project: Project): string {
  return path.dirname(path.resolve(project.dir))
}

/**
 * The sources as they are now, leaving out tiers’ own state (which runs and
 * responses write), what the project’s `freshness.exclude` names, and the
 * default output folders of the files git does not track.
 */
export function projectFingerprint(project: Project): Promise<SourceFingerprint> {
  const root = projectRoot(project)
  return sourceFingerprint(root, [path.relative(root, path.join(path.resolve(project.dir), stateFolder)) || '.'], {
    command: projectTestCommand(project.config),
    freshnessExclude: projectFreshnessExclude(project.config)
  })
}
