/** Fleet analysis on 64 simulated nodes (a 6-regular subset of the pairs): a slow NIC and a node without P2P, 20 seeds. */
import { test } from 'node:test'
import { namesTwoNodes } from './_fleet.ts'

test(...namesTwoNodes(64, { pairsPerNode: 6 }))
