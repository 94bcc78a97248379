/** Whether dist/.built is newer than every file under `root`/src/ (see dist-fresh.js). */
export function distIsFresh(root: string): boolean
