/** Fleet analysis of simulated clusters: a flapping NIC beside a slow one, on 16 nodes (20 seeds) and 64 nodes (a 6-regular subset of the pairs, 10 seeds). */
import { flappingByTail } from './_fleet.ts'

flappingByTail(16, 20)
flappingByTail(64, 10, { pairsPerNode: 6 })
