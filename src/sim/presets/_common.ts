/**
 * Numbers several presets share, each with its source. "docs/REFERENCE.md" is the
 * project's table of published numbers (each with its original public source).
 */
import type { HostModel, LinkParams, NoiseParams, PathLevel, Preset, TransportParams } from '../_types.ts'

/** NCCL's base latency per call, Ring LL / Ring Simple (µs): docs/REFERENCE.md, NVIDIA/nccl src/graph/tuning.cc baseLat. */
export const NCCL_BASE_LL_US = 6.6
export const NCCL_BASE_SIMPLE_US = 8.4

/** NCCL's per-step latency on PCI, Ring LL / Ring Simple (µs): docs/REFERENCE.md (tuning.cc hwLat, PCI row). */
export const PCI_HOP_LL_US = 1.0
export const PCI_HOP_SIMPLE_US = 5.7

/** Same on NVLink (µs): LL from docs/REFERENCE.md; Simple 3.4 from the same tuning.cc table (NVLink, Ring, Simple). */
export const NVLINK_HOP_LL_US = 0.6
export const NVLINK_HOP_SIMPLE_US = 3.4

/**
 * LL moves 8 bytes of data per 16-byte line (the other 8 are flags), so its bus bandwidth is
 * taken as half of Simple's. An assumption from LL's line format; not a measured number.
 */
export const LL_BW_FRACTION = 0.5

/** 8-GPU all_reduce busbw, RTX PRO 6000, dual Turin, default NCCL (= SHM transport there), GB/s: docs/REFERENCE.md. */
export const TURIN_SHM_BUSBW_GBS = 22.2

/**
 * Same with 8 channels, GB/s: docs/REFERENCE.md. Used as what the P2P transport reaches on Gen5
 * PCIe; an assumption (the source tuned channels, it did not switch the transport).
 */
export const GEN5_P2P_BUSBW_GBS = 37.6

/** PCIe Gen5 x16 per direction, theoretical, GB/s: docs/REFERENCE.md. */
export const GEN5_X16_GBS = 63.0

/**
 * Host-staged (P2P off) copy bandwidth as a fraction of the x16 link: RTX 6000 Ada on Gen4 gets
 * 22.1–22.4 GB/s uni of 31.5 (0.70) and 31.4–31.7 GB/s bidi, 1.42× uni (docs/REFERENCE.md, stelline).
 * Applied to Gen5; an extrapolation.
 */
export const STAGED_UNI_FRACTION = 22.25 / 31.5
export const STAGED_BI_OVER_UNI = 31.55 / 22.25

/** Host-staged Gen5 copy bandwidths derived from the two lines above (GB/s): 44.5 uni, 63.1 bidi. */
export const GEN5_STAGED_UNI_GBS = GEN5_X16_GBS * STAGED_UNI_FRACTION
export const GEN5_STAGED_BI_GBS = GEN5_STAGED_UNI_GBS * STAGED_BI_OVER_UNI

/** RTX PRO 6000 P2P copy bandwidth on Gen5, same NUMA, GB/s: uni 53–56.6, bidi 103–111 (docs/REFERENCE.md, rtx6kpro). */
export const GEN5_P2P_UNI_NEAR_GBS = 55.0
export const GEN5_P2P_UNI_FAR_GBS = 53.0
export const GEN5_P2P_BI_NEAR_GBS = 110.0
export const GEN5_P2P_BI_FAR_GBS = 103.0

/**
 * The RTX PRO 6000 Blackwell's own copies (the matrices' diagonal). Latency 1.4 µs: the
 * copy-engine small-copy floor, 1.3–3.3 µs (docs/REFERENCE.md, "Same GPU" row; 1.37 µs on the RTX
 * 6000 Ada fixture). Bandwidth: the Ada fixture's diagonal is ~812 GB/s on a 960 GB/s card
 * (0.85); × 1792 GB/s (NVIDIA's RTX PRO 6000 data sheet, not in docs/REFERENCE.md) ≈ 1520. CPU enqueue
 * time 1.9 µs: the Ada fixture's diagonal CPU cells (1.73–2.05).
 */
export const RTX_PRO_6000_LOCAL = { latUs: 1.4, cpuLatUs: 1.9, bwUniGBs: 1520, bwBiGBs: 1510 }

/**
 * Noise of a bare-metal host (assumption, calibrated by eye on the fixtures: the A100 `-g 8`
 * log's rows at ≤ 1 KiB scatter 38.7–40.1 µs, about 1.5 %). Outliers: 0.5 % of values at
 * 1.5–3× (rare slow iterations, e.g. the 557 µs in-place cell of the GH200 fixture).
 * Cold start: the first iteration of a run without warm-up costs 10× (lazy connection setup;
 * an assumption) and lifts that row's mean of `iters` iterations by 9/iters.
 */
export const BARE_METAL_NOISE: NoiseParams = {
  sigma: 0.015,
  outlierRate: 0.005,
  outlierMin: 1.5,
  outlierMax: 3.0,
  driftSigma: 0.005,
  coldFactor: 10,
}

/** The GPU of the three RTX PRO 6000 presets, as nvidia-smi and nccl-tests print its name. */
export const RTX_PRO_6000_NAME = 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition'

/** A ring transport: per-step latencies as given, LL's bus bandwidth `llFraction` (default LL_BW_FRACTION) of Simple's. */
export const ringTransport = (
  label: string,
  hopLLUs: number,
  hopSimpleUs: number,
  busBwSimpleGBs: number,
  llFraction = LL_BW_FRACTION,
): TransportParams => ({
  label,
  hopLLUs,
  hopSimpleUs,
  busBwLLGBs: busBwSimpleGBs * llFraction,
  busBwSimpleGBs,
})

/** A transport over PCIe with NCCL's PCI step latencies (PCI_HOP_*_US) and the given Simple bus bandwidth. */
export const pciTransport = (label: string, busBwSimpleGBs: number): TransportParams =>
  ringTransport(label, PCI_HOP_LL_US, PCI_HOP_SIMPLE_US, busBwSimpleGBs)

/**
 * SHM with NCCL_SHM_USE_CUDA_MEMCPY=1: every ring step a host-staged copy-engine copy of
 * `stagedCopyUs`, plus Simple's extra step cost over LL on PCI (PCI_HOP_SIMPLE_US − PCI_HOP_LL_US).
 */
export const ceMemcpyTransport = (stagedCopyUs: number, busBwSimpleGBs: number): TransportParams =>
  ringTransport('SHM/CE-memcpy', stagedCopyUs, stagedCopyUs + (PCI_HOP_SIMPLE_US - PCI_HOP_LL_US), busBwSimpleGBs)

/** Which end of the Gen5 P2P copy bandwidth ranges a pair class sits at (GEN5_P2P_*_NEAR/FAR_GBS). */
export type Gen5Distance = 'near' | 'far'

/**
 * A pair class of a bare-metal Gen5 preset with P2P on (baremetal-turin, pcie-switch). With P2P
 * off a copy is host-staged: `stagedCopyUs` per 16 B copy, GEN5_STAGED_* bandwidths. CPU
 * enqueue times from the 2-socket Genoa RTX 6000 Ada fixture (enabled 1.41–1.74 µs, disabled
 * 5.24–6.53 µs off the diagonal); the nearest published host. With P2P on: `latEnabledUs`, and
 * the GEN5_P2P_* bandwidths at the `distance` end of their ranges.
 */
export const gen5PeerLink = (
  level: PathLevel,
  latEnabledUs: number,
  distance: Gen5Distance,
  stagedCopyUs: number,
): LinkParams => ({
  peerAccess: true,
  latDisabledUs: stagedCopyUs,
  cpuLatEnabledUs: 1.5,
  cpuLatDisabledUs: 5.8,
  bwUniDisabledGBs: GEN5_STAGED_UNI_GBS,
  bwBiDisabledGBs: GEN5_STAGED_BI_GBS,
  level,
  latEnabledUs,
  bwUniEnabledGBs: distance === 'near' ? GEN5_P2P_UNI_NEAR_GBS : GEN5_P2P_UNI_FAR_GBS,
  bwBiEnabledGBs: distance === 'near' ? GEN5_P2P_BI_NEAR_GBS : GEN5_P2P_BI_FAR_GBS,
})

/**
 * Measured NCCL all_reduce costs on bare-metal Gen5 RTX PRO 6000 hosts (docs/REFERENCE.md,
 * github.com/voipmonitor/rtx6kpro), as per-step latencies over NCCL's base latencies:
 * - LL step 1.25 µs: the LL floors are 24.1–26.2 µs on 8 GPUs (6.6 + 14 × 1.25 = 24.1) and
 *   13.2–15.6 µs on 4 GPUs (6.6 + 6 × 1.25 = 14.1), optimization/pcie-oneshot-allreduce.md.
 *   NCCL's own model says 1.0 µs per PCI step (tuning.cc); the measurements are 25 % slower.
 * - LL's bus bandwidth 0.8 of Simple's (not LL_BW_FRACTION): the 4-GPU LL time grows only
 *   13.2 → 15.6 µs from 1 to 32 KB, at least 13 GB/s of algbw (~20 GB/s busbw); 0.8 × 22.2 GB/s
 *   puts 32 KB at 16.9 µs, 8 % over the band's top (within its tolerance); half would be 18.5 µs.
 * - Simple step 2.55 µs: default NCCL takes ~48 µs at 32–64 KB on 8 GPUs with Simple
 *   (optimization/nccl-tuning.md): 48 µs less ~3.9 µs of transfer at 12.7 GB/s algbw is 44.1 µs
 *   = 8.4 + 14 × 2.55.
 * - NCCL's tuner picks Simple from 32 KiB on for 8 GPUs (same page: "Simple chosen" at 32–64 KB),
 *   although LL would be faster there: its model, not the measured lines, decides. Other group
 *   sizes are not published: they switch where the two lines cross.
 */
export const GEN5_HOP_LL_US = 1.25
export const GEN5_HOP_SIMPLE_US = 2.55
export const GEN5_LL_BW_FRACTION = 0.8
export const GEN5_SIMPLE_FROM_BYTES: Readonly<Record<number, number>> = { 8: 32768 }

/**
 * NCCL's tuner on a dual-socket AMD host, SHM rings across the sockets: Simple from the smallest
 * message. NCCL rates every AMD CPU link at 16 GB/s (NVIDIA/nccl src/graph/topo.h, AMD_BW 16.0),
 * so on dual EPYC Turin without a graph file it takes SYS paths at minimum bandwidth and picks
 * Simple, not LL, for small messages ("Small message protocol SIMPLE" without the graph XML,
 * 32 KB all_reduce 48.16 µs vs 26.20 µs with it: rtx6kpro optimization/nccl-tuning.md; "skip the
 * low-latency protocol for smaller messages", rtx6kpro models/kimi-k25.md). Published for P2P
 * disabled and the default NCCL (SHM on this machine); NCCL_GRAPH_FILE (the fix) or NCCL_PROTO
 * gives LL back. Kimi K2.5 at batch 1 on that machine: 65 tok/s with P2P and the graph file, 44
 * without P2P (models/kimi-k25.md), +7.3 ms per token.
 */
export const AMD_XGMI_SIMPLE =
  'NCCL rates AMD CPU links at 16 GB/s (NVIDIA/nccl src/graph/topo.h AMD_BW) and picks Simple for small ' +
  'messages on SHM rings across the sockets without NCCL_GRAPH_FILE (github.com/voipmonitor/rtx6kpro ' +
  'optimization/nccl-tuning.md, models/kimi-k25.md)'

/**
 * NCCL on a bare-metal Gen5 RTX PRO 6000 host (baremetal-turin, pcie-switch): NCCL's base
 * latencies and the measured step costs above, the same over P2P and SHM (NCCL's model gives a
 * PCI step the same latency over both, docs/REFERENCE.md), P2P at GEN5_P2P_BUSBW_GBS and SHM at
 * TURIN_SHM_BUSBW_GBS; SHM/CE-memcpy steps of `stagedCopyUs`. `p2pLevel` as the preset says why.
 * Both presets that use it are dual EPYC hosts: SHM rings across the sockets run Simple
 * (AMD_XGMI_SIMPLE).
 */
export const gen5BareMetalNccl = (p2pLevel: PathLevel, stagedCopyUs: number): Preset['nccl'] => ({
  baseLLUs: NCCL_BASE_LL_US,
  baseSimpleUs: NCCL_BASE_SIMPLE_US,
  p2pLevel,
  p2p: ringTransport('P2P/IPC', GEN5_HOP_LL_US, GEN5_HOP_SIMPLE_US, GEN5_P2P_BUSBW_GBS, GEN5_LL_BW_FRACTION),
  shm: ringTransport('SHM', GEN5_HOP_LL_US, GEN5_HOP_SIMPLE_US, TURIN_SHM_BUSBW_GBS, GEN5_LL_BW_FRACTION),
  shmMemcpy: ceMemcpyTransport(stagedCopyUs, TURIN_SHM_BUSBW_GBS),
  simpleFromBytes: GEN5_SIMPLE_FROM_BYTES,
  shmSimpleAcrossSockets: AMD_XGMI_SIMPLE,
})

/**
 * Host part of a host-staged copy (a MODEL, in µs per staged copy or SHM ring step), used by
 * `--host` / `sweep --host-axis`. wakeUs 2: the middle of the 1–3 µs that BIOS power settings
 * (DF C-states, APBDIS) "may shave" in the seed case's own advice, not a published measurement.
 * crossSocketUs 0.6: the cross-NUMA surcharge of a small P2P copy through Broadcom switches,
 * 1.27–1.36 vs 0.71–0.74 µs (github.com/voipmonitor/rtx6kpro
 * hardware/asus-esc8000a-e13p-broadcom-switches.md), assumed the same for a staged copy.
 * iommuUs 0.5: an assumption (one IOTLB miss page walk per staged DMA); no published figure.
 */
export const HOST_STAGED_MODEL: HostModel = {
  wakeUs: 2,
  crossSocketUs: 0.6,
  iommuUs: 0.5,
  basis:
    'MODEL: cstates=shallow −2 µs (middle of the seed advice’s 1–3 µs, unpublished); ' +
    'numa=remote +0.6 µs (rtx6kpro asus-esc8000a-e13p-broadcom-switches.md, cross vs same NUMA ' +
    'P2P); iommu=identity −0.5 µs (assumption, no published figure)',
}

/**
 * The same host model on machines where P2P is direct (baremetal-turin, pcie-switch, nvlink):
 * the knob costs are those of HOST_STAGED_MODEL (an assumption carried over: the same host
 * wake-up, cross-socket staging and IOMMU translation per staged copy), and they apply only
 * where a copy is staged through host memory (P2P disabled, or NCCL over SHM). A direct P2P
 * copy goes GPU to GPU through the PCIe fabric or NVLink, not through host memory, so the
 * knobs leave it unchanged: that is the mechanism, and the reason they matter in a VM.
 */
export const DIRECT_P2P_HOST_MODEL: HostModel = {
  ...HOST_STAGED_MODEL,
  basis:
    `${HOST_STAGED_MODEL.basis}; on this machine only host-staged copies (P2P disabled, NCCL SHM) pay them: direct P2P ` +
    `copies do not pass through host memory and are unchanged (assumption carried over from ` +
    `the seed-vm figures)`,
}
