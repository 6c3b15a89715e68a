/** The folders of the workspace packages of the repository at `root` (`packages/cli`, `templates`), sorted. */
export declare function workspaceFolders(root: string): Promise<string[]>
