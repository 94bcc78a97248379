#!/usr/bin/env node
// Entry point installed as `gpucomm`: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api'

register()
const { runMain } = await import('../src/cli/main.ts')
await runMain()
