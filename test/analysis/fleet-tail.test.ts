/** Fleet analysis of simulated clusters: a flapping NIC beside a slow one, on 16 nodes (20 seeds) and 64 nodes (a 6-regular subset of the pairs, 10 seeds). */
import { test } from 'node:test'
import { flappingByTail } from './_fleet.ts'

test(...flappingByTail(16, 20))
test(...flappingByTail(64, 10, { pairsPerNode: 6 }))
