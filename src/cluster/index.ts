/**
 * Cluster sweeps: node names, the round-robin node-pairs schedule, the plan of job steps
 * across nodes, and its run into a result set (rows carry `host`, the manifest the allocation).
 */
export { describeClusterPlan } from './_describe.ts'
export type { ClusterPlan, ClusterStep, JobStep, Pattern } from './_plan.ts'
export { PATTERNS, planCluster } from './_plan.ts'
export type { ClusterProgress, ClusterRecord, ClusterRunOptions, ClusterRunResult } from './_run.ts'
export { CLUSTER_EXTRA, runCluster } from './_run.ts'
export type { Round } from './_schedule.ts'
export { roundRobin, scalingCounts, simNodeNames } from './_schedule.ts'
export type { JobRun, SelfCommand } from './_srun.ts'
export { launchJob, slurmNodeNames, srunJobCommand } from './_srun.ts'
