import {readFileSync} from 'node:fs'
import {repositoryUrl} from '@verification-tiers/lint-rule'
import type {VFile} from 'vfile'
import {reporter} from 'vfile-reporter'
import {reporterJson} from 'vfile-reporter-json'
import {reportGithub} from './github.js'
import {reportSarif} from './sarif.js'
import type {LintSettings} from './settings.js'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string}

/** A report, and the stream it belongs on: the remark CLI’s report on stderr, machine formats on stdout. */
export interface Report {
  stream: 'stdout' | 'stderr'
  text: string
}

/** The report of `files` in the format asked for, with the remark CLI’s options. */
export function formatReport(files: VFile[], settings: Pick<LintSettings, 'format' | 'color' | 'quiet' | 'silent'>): Report {
  switch (settings.format) {
    case 'github':
      return {stream: 'stdout', text: reportGithub(files, settings)}
    case 'sarif':
      return {stream: 'stdout', text: reportSarif(files, {silent: settings.silent, tool: {name: 'tiers lint', version: manifest.version, informationUri: repositoryUrl}})}
    case 'json':
      return {stream: 'stdout', text: reporterJson(files, {quiet: settings.quiet, silent: settings.silent}) + '\n'}
    case 'stylish': {
      // What unified-engine writes for the remark CLI: vfile-reporter’s text, ending in a line ending.
      const text = reporter(files, {color: settings.color, quiet: settings.quiet, silent: settings.silent})
      return {stream: 'stderr', text: text && !text.endsWith('\n') ? text + '\n' : text}
    }
  }
}
