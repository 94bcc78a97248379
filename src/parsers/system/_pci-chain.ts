/**
 * PCIe chain vocabulary shared by the lspci parsers and the sysfs reader: BDF spelling,
 * NVIDIA GPU naming heuristics, and switch detection along a chain of bridges.
 */

/** Normalizes a PCI address to `dddd:bb:dd.f` lowercase (nvidia-smi prints 8-digit domains). */
export function normalizeBdf(s: string): string | undefined {
  const m = /^(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])$/.exec(s.trim())
  if (!m) return undefined
  const domain = (m[1] ?? '0000').slice(-4).toLowerCase()
  return `${domain}:${(m[2] as string).toLowerCase()}:${(m[3] as string).toLowerCase()}.${m[4] as string}`
}

/**
 * Heuristic for `lspci -tv` names: an NVIDIA function that is not its audio, USB, UCSI,
 * serial or network sibling. `lspci -tv` prints no class codes; prefer `lspci -nn` or sysfs.
 */
export function looksLikeNvidiaGpu(name: string): boolean {
  return (
    /NVIDIA Corporation/i.test(name) &&
    !/Audio|USB|UCSI|Serial|Ethernet|Infiniband|ConnectX|BlueField|NVSwitch|Bridge|SMBus/i.test(name)
  )
}

/** Role of a bridge in a GPU's upstream chain. */
export type BridgeRole = 'root-port' | 'switch-upstream' | 'switch-downstream' | 'bridge'

/**
 * Roles of the bridges from the root port down to a device: the first is the root port;
 * below it, bridges pair up as a switch's upstream and downstream port; a lone last
 * bridge (e.g. a PCIe-to-PCI bridge) is just a bridge.
 */
export function chainRoles(chain: readonly string[]): BridgeRole[] {
  return chain.map((_, i) => {
    if (i === 0) return 'root-port'
    if (i % 2 === 1) return i + 1 < chain.length ? 'switch-upstream' : 'bridge'
    return 'switch-downstream'
  })
}

/** The upstream ports (switch ids) of the switches in a chain, nearest the root first. */
export function chainSwitches(chain: readonly string[]): string[] {
  const roles = chainRoles(chain)
  return chain.filter((_, i) => roles[i] === 'switch-upstream')
}
