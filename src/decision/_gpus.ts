/**
 * GPU memory bandwidth, the ceiling of a memory-bound decode step. Each number is the vendor's
 * datasheet figure (docs/REFERENCE.md, decode-step model); the step model applies a measured
 * efficiency to it (see _calibrate.ts).
 */

/** One GPU model: how to recognise it by name, and its memory. */
export interface GpuSpec {
  id: string
  name: string
  /** Matches the GPU name as nvidia-smi or a tool prints it. */
  pattern: RegExp
  /** Peak memory bandwidth (bytes/second). */
  memBandwidth: number
  /** Memory per GPU (bytes). */
  memBytes: number
  source: string
}

const GB = 1e9

/** Every GPU the step model knows, most specific pattern first. */
export const GPUS: readonly GpuSpec[] = [
  {
    id: 'rtx-pro-6000',
    name: 'RTX PRO 6000 Blackwell',
    pattern: /RTX PRO 6000/i,
    memBandwidth: 1792 * GB,
    memBytes: 96 * GB,
    source: 'NVIDIA RTX PRO 6000 Blackwell datasheet: 96 GB GDDR7, 1,792 GB/s',
  },
  {
    id: 'rtx-5090',
    name: 'GeForce RTX 5090',
    pattern: /RTX 5090/i,
    memBandwidth: 1792 * GB,
    memBytes: 32 * GB,
    source: 'NVIDIA GeForce RTX 5090 specifications: 32 GB GDDR7, 1,792 GB/s',
  },
  {
    id: 'rtx-4090',
    name: 'GeForce RTX 4090',
    pattern: /RTX 4090/i,
    memBandwidth: 1008 * GB,
    memBytes: 24 * GB,
    source: 'NVIDIA GeForce RTX 4090 specifications: 24 GB GDDR6X, 1,008 GB/s',
  },
  {
    id: 'h200',
    name: 'H200',
    pattern: /H200/i,
    memBandwidth: 4800 * GB,
    memBytes: 141 * GB,
    source: 'NVIDIA H200 datasheet: 141 GB HBM3e, 4.8 TB/s',
  },
  {
    id: 'h100-pcie',
    name: 'H100 PCIe',
    pattern: /H100.*PCIe/i,
    memBandwidth: 2000 * GB,
    memBytes: 80 * GB,
    source: 'NVIDIA H100 datasheet, PCIe form factor: 80 GB HBM2e, 2.0 TB/s',
  },
  {
    id: 'h100-sxm',
    name: 'H100 SXM',
    pattern: /H100/i,
    memBandwidth: 3350 * GB,
    memBytes: 80 * GB,
    source: 'NVIDIA H100 datasheet, SXM form factor: 80 GB HBM3, 3.35 TB/s',
  },
  {
    id: 'a100-80',
    name: 'A100 80GB',
    pattern: /A100/i,
    memBandwidth: 2039 * GB,
    memBytes: 80 * GB,
    source: 'NVIDIA A100 datasheet, 80 GB SXM: HBM2e, 2,039 GB/s',
  },
]

/** The GPU spec for a printed GPU name, or undefined when none matches. */
export function gpuSpecFor(name: string | null | undefined): GpuSpec | undefined {
  if (!name) return undefined
  return GPUS.find((g) => g.pattern.test(name))
}

/** The GPU spec by id. */
export function gpuById(id: string): GpuSpec | undefined {
  return GPUS.find((g) => g.id === id)
}
