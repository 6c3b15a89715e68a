/**
 * Render the protocol’s formats from the partials generate-protocol
 * precompiled: the runtime needs only the small Handlebars runtime, and prints
 * exactly what the docs show.
 */
import {createRequire} from 'node:module'
import * as protocol from '@verification-tiers/protocol'
import {templateHelpers} from '@verification-tiers/protocol'
import {partialSpecs} from '@verification-tiers/protocol/partials'
import type {EscalationData, RejectionOptionsData, VerifyCheckpointData} from '@verification-tiers/protocol'
import type HandlebarsNamespace from 'handlebars'
import type {TierReport} from './report.js'
import type {Route} from './routing.js'

type TemplateSpecification = Parameters<typeof HandlebarsNamespace.template>[0]

const specs = partialSpecs as Record<string, TemplateSpecification>

/** The vocabulary, as templates see it under `protocol`. */
const protocolContext = {...protocol}

const require = createRequire(import.meta.url)
let templates: Map<string, HandlebarsNamespace.TemplateDelegate> | undefined

/**
 * The partials, made on first use: a command that renders nothing
 * (`tiers status`) never loads Handlebars.
 */
function loadTemplates(): Map<string, HandlebarsNamespace.TemplateDelegate> {
  if (templates) return templates
  const Handlebars = require('handlebars/runtime') as typeof HandlebarsNamespace
  const environment = Handlebars.create()
  environment.registerHelper(templateHelpers)
  templates = new Map()
  for (const [name, spec] of Object.entries(specs)) {
    const template = environment.template(spec)
    templates.set(name, template)
    environment.registerPartial(name, template)
  }
  return templates
}

/** Names of the precompiled partials. */
export function partialNames(): string[] {
  return Object.keys(specs)
}

/** Render a precompiled partial with `data` (and the vocabulary as `protocol`); no trailing newline. */
export function renderPartial(name: string, data: object): string {
  const template = Object.hasOwn(specs, name) ? loadTemplates().get(name) : undefined
  if (!template) throw new Error(`Unknown checkpoint format \`${name}\`, expected one of ${partialNames().join(', ')}`)
  return template({...data, protocol: protocolContext}).replace(/\n$/, '')
}

/** What the changes a checkpoint or the stop hook lists are measured from, unless told otherwise. */
export const approvedSince = 'a person approved the slice'

/** The Verify checkpoint of a slice, adapted to criteria only, steps only, both or neither. */
export function renderVerifyCheckpoint(data: VerifyCheckpointData): string {
  // The slice’s own check and texts are optional: a slice without them renders as before.
  return renderPartial('verify-checkpoint', {
    humanCheck: null,
    verification: null,
    retired: null,
    changed: [],
    changedSince: approvedSince,
    records: [],
    ...data
  })
}

/** The three ways to address a rejection, with the user’s words. */
export function renderRejectionOptions(data: RejectionOptionsData): string {
  return renderPartial('rejection-options', data)
}

/** The escalation after repeated rejections of one slice, with its three options. */
export function renderEscalation(data: EscalationData): string {
  return renderPartial('escalation', data)
}

/** A routed rejection with everything the next agent is to receive. */
export function renderRoute(route: Route): string {
  return renderPartial('route', route)
}

/** The verifier’s tier report of a slice; informational, it enforces nothing. */
export function renderTierReport(report: TierReport): string {
  return renderPartial('tier-report', report)
}
