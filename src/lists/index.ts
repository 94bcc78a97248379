/**
 * List syntaxes of the command line and the batch system, parsed and formatted (pure): GPU
 * lists and pairs (`--gpus`, `--pairs`) and Slurm hostlists.
 */

export { allPairs, formatGpuList, MAX_PAIRS, parseGpuList, parsePairs } from './_gpus.ts'
export { expandHostlist, resolveHosts } from './_hosts.ts'
