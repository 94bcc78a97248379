/**
 * Building instruments: gpucomm's native benches (nvcc, cached by source hash, nvcc version,
 * arch, and the host compiler and NVCC_* variables nvcc uses) and a user's own nccl-tests or
 * cuda-samples checkout (make), registered in `<cache>/instruments.json`.
 */

export { buildKey, cacheRoot, nativeSources } from './_cache.ts'
export type { HostCompiler, HostTool } from './_host.ts'
export { ccbinOf, findHostCompiler, hostToolNames, NVCC_ENV_VARS } from './_host.ts'
export type { BuildNativeOptions, NativeBuild } from './_native.ts'
export { buildNative } from './_native.ts'
export type { Nvcc } from './_nvcc.ts'
export { detectArch, FATBIN_ARCHS, findNvcc, gencodeFlags, nvccCandidates } from './_nvcc.ts'
export type { InstrumentRegistry, RegisteredInstrument } from './_registry.ts'
export { readRegistry, registerInstrument, registryPath } from './_registry.ts'
export type { BuildUpstreamOptions } from './_upstream.ts'
export { buildUpstream, upstreamKind } from './_upstream.ts'
