/** The folder of the templates (`CLAUDE.md.hbs`, `partials/`, `references/`): this package’s own. */
export declare const templatesFolder: string
