/** Fleet analysis on 64 simulated nodes (a 6-regular subset of the pairs): a slow NIC and a node without P2P, 20 seeds. */
import { namesTwoNodes } from './_fleet.ts'

namesTwoNodes(64, { pairsPerNode: 6 })
