/**
 * The checkpoint partials, precompiled by generate-protocol from the
 * templates into `partials.generated.js`: Handlebars template
 * specifications by partial name, for `Handlebars.template` of the
 * Handlebars runtime.
 */
export declare const partialSpecs: Readonly<Record<string, unknown>>
